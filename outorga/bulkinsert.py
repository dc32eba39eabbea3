"""Insert many plain rows into one table in the caller's transaction, without building model instances.

For writers whose rows are already final values (the audit chain's batch, the e-mail outbox): PostgreSQL gets
one COPY in its text format (as atomic as INSERT, several times cheaper, and no ORM compilation of every value),
each row formatted by psycopg's C writer (about half the CPU of formatting the lines in Python);
other databases one executemany INSERT. No signals, no defaults: the caller gives every column it means to set.
JSON columns take already-serialized text (the audit batch gives the canonical text it signed, so what is
stored is exactly what was signed).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection


def _param(value: Any) -> Any:
    """A datetime or date as the backend's own field would store it (SQLite keeps naive UTC text)."""
    if isinstance(value, dt.datetime):
        return connection.ops.adapt_datetimefield_value(value)
    if isinstance(value, dt.date):
        return connection.ops.adapt_datefield_value(value)
    return value


def insert_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert `rows` (one value per column, in order) into `table`; the number inserted."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in columns)
    count = 0
    if connection.vendor == "postgresql":
        # psycopg formats each row in C with its own adapters (text, numbers, dates, None, bools; a TextChoices
        # member as its text) and sends every ≈ 32 kB as it fills, so the server stores the first rows while a
        # lazy `rows` (the audit chain's signing) computes the next.
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {quote(table)} ({names}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
                count += 1
        return count
    values = [tuple(map(_param, row)) for row in rows]
    if values:
        placeholders = ", ".join(["%s"] * len(columns))
        with connection.cursor() as cursor:
            cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({placeholders})", values)
    return len(values)


def insert_parts(row: Any, using: Any, *, skip: Sequence[str] = ()) -> tuple[str, list[str], list[Any]]:
    """A new model row's quoted table and columns and its values as the ORM's insert prepares them (pre_save,
    then get_db_prep_save), all fields but its id and those named in `skip`: for the INSERTs written once that
    send the row with another statement (a numbered permit, an audit event with its timeline line)."""
    quote = using.ops.quote_name
    fields = [f for f in row._meta.concrete_fields if not f.primary_key and f.name not in skip]
    values = [f.get_db_prep_save(f.pre_save(row, True), using) for f in fields]
    return quote(row._meta.db_table), [quote(f.column) for f in fields], values
