"""What an attacker who owns the audit table can do: switch the triggers off and rewrite rows.

On PostgreSQL it is the owner's own `ALTER TABLE ... DISABLE TRIGGER USER` (what the README's deployment,
where the app's user owns the table, allowed); on SQLite, where triggers cannot be disabled, dropping them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from io import StringIO

from django.core.management import CommandError, call_command
from django.db import connection, transaction

from apps.audit.hashing import hashed_fields, keyed_event_hash, legacy_event_hash
from apps.audit.keys import configured_keys
from apps.audit.models import AuditEvent, HashScheme
from apps.audit.triggers import TABLE, triggers_suspended


@contextmanager
def triggers_disabled_by_owner() -> Iterator[None]:
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # The test's own inserts still have deferred foreign-key checks queued; ALTER TABLE needs none.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute(f"ALTER TABLE {TABLE} DISABLE TRIGGER USER")
            try:
                yield
            finally:
                with connection.cursor() as cursor:
                    cursor.execute(f"ALTER TABLE {TABLE} ENABLE TRIGGER USER")
        else:
            with triggers_suspended(connection):
                yield


def tamper(sql: str, params: Sequence[int | str] = ()) -> None:
    with triggers_disabled_by_owner(), connection.cursor() as cursor:
        cursor.execute(sql, list(params))


def rehash_from(chain: str, seq: int, *, keyless: bool = False) -> None:
    """Recompute hash and prev_hash of every event from `seq` on, as a forger would after editing one.

    With the key (keyless=False) the chain then links up perfectly; keyless, the forger writes plain
    SHA-256 hashes because the HMAC key is not in the database.
    """
    keys = configured_keys()
    previous = (
        AuditEvent.objects.filter(chain=chain, seq=seq - 1).values_list("hash", flat=True).first() or ""
    )
    with triggers_disabled_by_owner(), connection.cursor() as cursor:
        for event in AuditEvent.objects.of_chain(chain).filter(seq__gte=seq):
            event.prev_hash = previous
            if keyless:
                scheme, key_id = HashScheme.LEGACY_SHA256, ""
                new_hash = legacy_event_hash(hashed_fields(event), previous)
            else:
                scheme, key_id = HashScheme.HMAC_SHA256, keys.current_id
                new_hash = keyed_event_hash(
                    hashed_fields(event), previous, key_id=key_id, secret=keys.current_secret
                )
            cursor.execute(
                f"UPDATE {TABLE} SET prev_hash = %s, hash = %s, hash_scheme = %s, key_id = %s WHERE id = %s",
                [previous, new_hash, scheme, key_id, event.pk],
            )
            previous = new_hash


def run(command: str, *args: str) -> tuple[str, bool]:
    out = StringIO()
    try:
        call_command(command, *args, stdout=out)
    except CommandError as error:
        return out.getvalue() + str(error), False
    return out.getvalue(), True
