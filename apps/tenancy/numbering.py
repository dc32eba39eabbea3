"""Sequential numbers per municipality, kind and year, correct when many transactions take one at once.

One `UPDATE … SET last = last + 1 … RETURNING last` both takes the number and locks the counter row until the
caller commits (PostgreSQL row lock; SQLite runs every transaction as IMMEDIATE, so writers are serialized
already). Call it just before the insert that uses the number: the lock is held from here to the commit. The
first number of a year creates the row; two transactions racing to create it collide on the unique constraint,
and the loser increments the winner's row instead of failing. The callers' own unique constraint on the number
is the last line of defence.
"""

from __future__ import annotations

from django.db import IntegrityError, connections, router, transaction

from apps.tenancy.models import Counter, Municipality


def number_take(*, kind: str, municipality: Municipality, year: int) -> int:
    """Reserve and return the next number; must run inside the caller's transaction."""
    alias = router.db_for_write(Counter)
    if not transaction.get_connection(alias).in_atomic_block:
        raise RuntimeError("number_take must run inside the caller's transaction.atomic block")
    taken = _increment(alias, kind, municipality.pk, year)
    if taken is not None:
        return taken
    try:
        with transaction.atomic(using=alias):
            Counter.objects.using(alias).create(municipality=municipality, kind=kind, year=year, last=1)
        return 1
    except IntegrityError:
        taken = _increment(alias, kind, municipality.pk, year)
        if taken is None:  # the row that made our insert collide cannot vanish inside a transaction
            raise
        return taken


def _increment(alias: str, kind: str, municipality_id: int, year: int) -> int | None:
    connection = connections[alias]
    quote = connection.ops.quote_name
    table, last = quote(Counter._meta.db_table), quote("last")
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {last} = {last} + 1 "  # noqa: S608  (names quoted, values bound)
            f"WHERE {quote('municipality_id')} = %s AND {quote('kind')} = %s AND {quote('year')} = %s "
            f"RETURNING {last}",
            [municipality_id, kind, year],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else None


def format_number(sequence: int, year: int) -> str:
    """'0042/2026': four digits at least, the year after the slash."""
    return f"{sequence:04d}/{year}"
