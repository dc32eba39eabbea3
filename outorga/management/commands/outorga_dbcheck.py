"""`manage.py outorga_dbcheck`: connect to the configured database and say plainly whether it works.

Run before `migrate` (the Makefile does) and by operators after changing DATABASE_URL. A failure is a
one-paragraph English message naming the engine, host and database (never the password) and the
driver's own first line, with exit status 1 — not a stack trace.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections


def describe_database(settings_dict: dict[str, Any]) -> str:
    """Where the alias points, without credentials: 'postgresql 127.0.0.1:5432/outorga'."""
    vendor = str(settings_dict.get("ENGINE", "")).rsplit(".", 1)[-1]
    name = settings_dict.get("NAME", "")
    if vendor == "sqlite3":
        return f"sqlite3 file {name}"
    host = settings_dict.get("HOST") or "local socket"
    port = settings_dict.get("PORT")
    return f"{vendor} {host}{f':{port}' if port else ''}/{name}"


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else error.__class__.__name__


class Command(BaseCommand):
    help = "Check that the database in DATABASE_URL is reachable and answers a query."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="Database alias (default: default).")

    def handle(self, *args: Any, **options: Any) -> None:
        alias: str = options["database"]
        if alias not in connections:
            raise CommandError(f"Unknown database alias {alias!r}.")
        connection = connections[alias]
        where = describe_database(connection.settings_dict)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except DatabaseError as exc:
            raise CommandError(
                f"Cannot connect to the database {alias!r} ({where}): {first_line(exc)}. "
                "Check DATABASE_URL and that the database server is running and reachable."
            ) from exc
        self.stdout.write(self.style.SUCCESS(f"Database {alias!r} is reachable ({where})."))
