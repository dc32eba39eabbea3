"""Django's flush, able to empty the append-only audit table.

Emptying the whole database is the one sanctioned way audit rows disappear (test teardown, a demo
reset). The triggers are dropped and recreated inside the same transaction as the deletes, so no
other connection ever sees the table unprotected.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections, transaction

from apps.audit.triggers import triggers_suspended


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        connection = connections[options["database"]]
        with transaction.atomic(using=connection.alias), triggers_suspended(connection):
            super().handle(**options)
