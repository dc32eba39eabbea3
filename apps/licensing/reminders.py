"""The reminders of a step's windows, recorded in one statement: INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING.

The SELECT is the sweep step's own querysets (what is due in each window, not reminded yet, with the owner's
address; one per threshold, joined by UNION ALL), compiled by the ORM; the unique key (object, threshold,
expiry date) makes a second run insert nothing, even one racing the first. RETURNING hands back exactly the rows
this run inserted, with their threshold and what their e-mail says (read by primary key in the same statement),
so no id list travels to the database and back.
Runs on PostgreSQL and on SQLite ≥ 3.35 (RETURNING; the `WHERE true` is SQLite's rule for an upsert whose
SELECT could be read as a join).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from typing import Any

from django.db import connection
from django.db.models import F, Field, Model, PositiveSmallIntegerField, QuerySet, Value

from apps.licensing.choices import ReminderTarget
from apps.licensing.models import Permit, Reminder
from apps.registry.models import Document, Vehicle

FETCH = 5000
# The reminder's own columns, in INSERT order; the SELECT gives municipality, object, threshold, expiry and address.
_COLUMNS = ("municipality_id", "target", "target_id", "days_before", "expires_on", "recipient", "sent_on")
_UNIQUE = ("target", "target_id", "days_before", "expires_on")
_SELECTED = ("due_municipality", "due_pk", "due_days", "due_until", "recipient")


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _table(model: type[Model]) -> str:
    return _q(model._meta.db_table)


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.column  # a concrete column, not a reverse relation
    return _q(field.column)


def _message_fields(target: str) -> dict[str, str]:
    """What the e-mail of each target needs beyond the reminder row: scalar subqueries by primary key."""
    reminded = f"{_table(Reminder)}.{_column(Reminder, 'target_id')}"
    permit, vehicle, document = _table(Permit), _table(Vehicle), _table(Document)
    if target == ReminderTarget.PERMIT:
        return {
            "number": f"(SELECT {_column(Permit, 'number')} FROM {permit} WHERE {permit}.id = {reminded})",
            "plate": (
                f"(SELECT {vehicle}.{_column(Vehicle, 'plate')} FROM {permit} JOIN {vehicle} "
                f"ON {vehicle}.id = {permit}.{_column(Permit, 'vehicle')} WHERE {permit}.id = {reminded})"
            ),
        }
    return {"kind": f"(SELECT {_column(Document, 'kind')} FROM {document} WHERE {document}.id = {reminded})"}


def _statement(target: str, due: Mapping[int, QuerySet[Any]]) -> tuple[str, list[Any]]:
    # Named aliases: the outer SELECT reads the ORM's subqueries by name, whatever they call their columns.
    selects, params = [], []
    for days, queryset in due.items():
        aliased = queryset.order_by().annotate(
            due_municipality=F("municipality_id"),
            due_pk=F("pk"),
            due_days=Value(days, output_field=PositiveSmallIntegerField()),
            due_until=F("valid_until"),
        )
        select, select_params = aliased.values(*_SELECTED).query.sql_with_params()
        selects.append(select)
        params += select_params
    extra = _message_fields(target)
    returning = ", ".join(
        [_q(c) for c in ("target_id", "municipality_id", "days_before", "expires_on", "recipient")]
        + [f"{sql} AS {_q(name)}" for name, sql in extra.items()]
    )
    sql = (
        f"INSERT INTO {_table(Reminder)} ({', '.join(_q(c) for c in _COLUMNS)}) "
        f"SELECT due.due_municipality, %s, due.due_pk, due.due_days, due.due_until, due.recipient, %s "
        f"FROM ({' UNION ALL '.join(selects)}) due WHERE true "
        f"ON CONFLICT ({', '.join(_q(c) for c in _UNIQUE)}) DO NOTHING RETURNING {returning}"
    )
    return sql, params


def _date(value: Any) -> dt.date:
    """SQLite hands a raw cursor's dates back as ISO text."""
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(value)


def reminders_insert(
    *, target: str, due: Mapping[int, QuerySet[Any]], as_of: dt.date
) -> Iterator[dict[str, Any]]:
    """Insert a reminder for every row of each `due` queryset (days before expiry → permits or documents
    annotated with ``recipient``) not reminded yet at that threshold for this expiry date; yield each inserted
    one as {pk, municipality_id, days, valid_until, recipient, <its message fields>}."""
    if not due:
        return
    sql, params = _statement(target, due)
    names = ("pk", "municipality_id", "days", "valid_until", "recipient", *_message_fields(target))
    with connection.cursor() as cursor:
        # The outer literals come first in the text (target, day sent), then the SELECTs' own.
        cursor.execute(sql, [target, as_of, *params])
        while rows := cursor.fetchmany(FETCH):
            for row in rows:
                values = dict(zip(names, row, strict=True))
                values["valid_until"] = _date(values["valid_until"])
                yield values
