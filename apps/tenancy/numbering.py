"""Sequential numbers per municipality, kind and year, correct when many transactions take one at once.

One `UPDATE … SET last = last + 1 … RETURNING last` both takes the number and locks the counter row until the
caller commits (PostgreSQL row lock; SQLite runs every transaction as IMMEDIATE, so writers are serialized
already). Call it just before the insert that uses the number: the lock is held from here to the commit. The
first number of a year creates the row; two transactions racing to create it collide on the unique constraint,
and the loser increments the winner's row instead of failing. The callers' own unique constraint on the number
is the last line of defence.

`numbered_insert` takes the number and inserts the row that carries it in one statement on PostgreSQL, so the
counter row is locked with no round trip to the client before the insert; a caller's statements that must
come first (the audit chain's lock, which every issuer of a town takes before the counter) can share its query.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.db import IntegrityError, connections, models, router, transaction

from apps.tenancy.models import Counter, Municipality
from outorga.bulkinsert import insert_parts


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


class Lead(Protocol):
    """Statements of another service sent at the start of numbered_insert's query (audit's ChainLock)."""

    def lead(self) -> tuple[str, list[Any]] | None: ...

    def read(self, cursor: Any) -> None: ...

    def take(self) -> None: ...


def numbered_insert(*, kind: str, row: models.Model, lead: Lead | None = None) -> int:
    """Take the next number of the row's municipality, `kind` and year and insert the new `row` with it (its
    `sequence` and `number` set, as format_number writes it), in the caller's transaction; return the number.
    `lead`'s statements go first in the same query where they can (its own round trip otherwise, before the
    number is taken).

    PostgreSQL: one statement, ``WITH n AS (UPDATE counter … RETURNING last) INSERT … SELECT … FROM n``, so the
    row goes in as soon as the counter row is locked, without a round trip to the client in between, and its
    values are prepared before. The first number of a year (no counter row yet: the statement inserts nothing)
    and other databases take the number with number_take and then insert the row. No model signals are sent on
    PostgreSQL (as with bulk_create): numbered rows have no receivers.
    """
    alias = router.db_for_write(type(row))
    connection = connections[alias]
    if not connection.in_atomic_block:
        raise RuntimeError("numbered_insert must run inside the caller's transaction.atomic block")
    year = row.year  # type: ignore[attr-defined]
    first = lead.lead() if lead is not None else None
    if lead is not None and first is None:
        lead.take()
    if connection.vendor == "postgresql":
        sql, values = _numbered_insert_sql(row, alias)
        values = [row.municipality_id, kind, year, *values, str(year)]  # type: ignore[attr-defined]
        with connection.cursor() as cursor:
            if first is not None:
                cursor.execute(f"{first[0]}; {sql}", [*first[1], *values])
                lead.read(cursor)  # type: ignore[union-attr]
            else:
                cursor.execute(sql, values)
            inserted = cursor.fetchone()
        if inserted is not None:
            row.pk, sequence = inserted
            row.sequence, row.number = sequence, format_number(sequence, year)  # type: ignore[attr-defined]
            row._state.adding, row._state.db = False, alias
            return int(sequence)
    sequence = number_take(kind=kind, municipality=row.municipality, year=year)  # type: ignore[attr-defined]
    row.sequence, row.number = sequence, format_number(sequence, year)  # type: ignore[attr-defined]
    row.save(force_insert=True, using=alias)
    return sequence


def _numbered_insert_sql(row: models.Model, alias: str) -> tuple[str, list[Any]]:
    """The statement and the row's values (all but its id, sequence and number), as the ORM's insert prepares
    them (pre_save, then get_db_prep_save)."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    meta = row._meta
    target, names, values = insert_parts(row, connection, skip=("sequence", "number"))
    table, last = quote(Counter._meta.db_table), quote("last")
    columns = ", ".join([*names, quote("sequence"), quote("number")])
    marks = ", ".join(["%s"] * len(values))
    sql = (
        f"WITH n AS (UPDATE {table} SET {last} = {last} + 1 "  # noqa: S608  (names quoted, values bound)
        f"WHERE {quote('municipality_id')} = %s AND {quote('kind')} = %s AND {quote('year')} = %s "
        f"RETURNING {last}) "
        f"INSERT INTO {target} ({columns}) SELECT {marks}, n.{last}, {number_sql(f'n.{last}')} "
        f"FROM n RETURNING {quote(meta.pk.column)}, {quote('sequence')}"
    )
    return sql, values


def format_number(sequence: int, year: int, *, prefix: str = "", digits: int = 4) -> str:
    """The one format of every yearly number: '0042/2026' (a permit), 'AI-0042/2026' (an auto),
    '000042/2026' (a guide, six digits as the banks' slips print it): ``digits`` at least, the year after the
    slash."""
    return f"{prefix}{sequence:0{digits}d}/{year}"


def number_sql(sequence: str) -> str:
    """format_number in PostgreSQL: `sequence` an SQL expression, the year bound as text after it (lpad alone
    would cut a number of five digits to four)."""
    return f"lpad({sequence}::text, greatest(length({sequence}::text), 4), '0') || '/' || %s"
