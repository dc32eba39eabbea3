from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.tenancy.demo import DemoLog, seed_demo


class Command(BaseCommand):
    help = "Load demo municipalities and staff logins (idempotent). Refuses to run with DEBUG off unless --force."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="run even with DEBUG off (never in production)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "DEBUG is off: this looks like production. Demo logins have public passwords; "
                "use --force only on a throwaway installation."
            )
        log = seed_demo()
        self._print_logins(log)
        for note in log.notes:
            self.stdout.write(note)
        self.stdout.write(self.style.SUCCESS(f"Demo data ready: {log.created} new record(s) created."))

    def _print_logins(self, log: DemoLog) -> None:
        header = ("usuário", "senha", "município", "papel")
        rows = [header] + [(row.username, row.password, row.municipality, row.role) for row in log.logins]
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        for number, row in enumerate(rows):
            self.stdout.write(
                "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            )
            if number == 0:
                self.stdout.write("  ".join("-" * width for width in widths))
