from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.accounts.models import User
from apps.accounts.services import second_factor_reset


class Command(BaseCommand):
    help = (
        "Remove a user's authenticator apps and recovery codes (lost phone). Staff enrol a new one at their next "
        "login. Audited as done by the system."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"No user named {options['username']!r}.")
        second_factor_reset(actor=None, user=user)
        self.stdout.write(
            self.style.SUCCESS(f"Second factor of {user.username} removed; they enrol again at login.")
        )
