from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.audit.roles import app_role_grants


class Command(BaseCommand):
    help = (
        "Print the SQL that gives the application's PostgreSQL role its privileges: every table, but only "
        "SELECT/INSERT on the audit table. Run it as the owner after `migrate` (docs/security.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--app-role", default="outorga_app")
        parser.add_argument("--owner-role", default="outorga_owner")
        parser.add_argument("--schema", default="public")

    def handle(self, *args: Any, **options: Any) -> None:
        statements = app_role_grants(
            options["app_role"], owner_role=options["owner_role"], schema=options["schema"]
        )
        for sql in statements:
            self.stdout.write(f"{sql};")
