"""The document standing's reads for the public lookup, written once per process instead of compiled by the ORM
on every request (issue 12: compiling them was the largest share of a lookup's CPU).

licensing.standing reads, for the permits it decides on, the operators' active drivers and the owners'
mandatory documents through a RowReader. OrmRows there is the ORM's

    Driver.objects.filter(operator_id__in=…, active=True).only(*DRIVER_COLUMNS)
    Document.objects.filter(Q(vehicle_id__in=…) | Q(operator_id__in=…) | …, kind__in=…).values(*DOCUMENT_COLUMNS)

and PublicRows below is the same two SELECTs — same columns, same conditions, same order (the models' default
ordering) — written once per database and shape (how many ids of each kind) and reused. The configuration stamp
comes with the permit (apps.public.selectors). tests/test_standing_rows.py compares the two readers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connections, router
from django.db.models import Field, Model

from apps.licensing.models import Permit
from apps.licensing.standing import DOCUMENT_COLUMNS, DRIVER_COLUMNS
from apps.public.selectors import STAMP
from apps.registry.models import Document, Driver, Person

Converter = Callable[[Any, Any, Any], Any]
Shape = tuple[Any, ...]


def _fields(model: type[Model], names: Sequence[str]) -> tuple[Field[Any, Any], ...]:
    """The named concrete fields (by name or attname, "pk" for the key) in the model's order."""
    pk = model._meta.pk
    wanted = {pk.name if n == "pk" and pk is not None else n for n in names}
    return tuple(f for f in model._meta.concrete_fields if f.name in wanted or f.attname in wanted)


def _column(model: type[Model], name: str) -> str:
    """The column of a concrete field, by name or attname."""
    return next(f.column for f in model._meta.concrete_fields if name in (f.name, f.attname))


DRIVER_FIELDS = _fields(Driver, DRIVER_COLUMNS)
DOCUMENT_FIELDS = tuple(
    _fields(Document, [name])[0] for name in DOCUMENT_COLUMNS
)  # in DOCUMENT_COLUMNS' order


class PublicRows:
    """A licensing.standing.RowReader over SQL written once per (database, shape)."""

    def __init__(self) -> None:
        self._written: dict[Shape, str] = {}
        self._converters: dict[Shape, list[tuple[Any, tuple[Converter, ...]]]] = {}

    def drivers(self, operator_ids: list[int]) -> list[Driver]:
        if not operator_ids:
            return []
        db = router.db_for_read(Driver)
        sql = self._sql((db, "drivers", len(operator_ids)), self._drivers_sql)
        rows = self._run(db, sql, [*operator_ids, True], DRIVER_FIELDS)
        attnames = tuple(field.attname for field in DRIVER_FIELDS)
        return [Driver.from_db(db, attnames, row) for row in rows]

    def documents(self, owners: dict[str, list[int]], kinds: list[str]) -> list[dict[str, Any]]:
        db = router.db_for_read(Document)
        shape = (db, "documents", tuple((column, len(ids)) for column, ids in owners.items()), len(kinds))
        sql = self._sql(shape, self._documents_sql)
        params = [*(pk for ids in owners.values() for pk in ids), *kinds]
        rows = self._run(db, sql, params, DOCUMENT_FIELDS)
        return [dict(zip(DOCUMENT_COLUMNS, row, strict=True)) for row in rows]

    def stamp(self, permit: Permit) -> str | None:
        """Read by the lookup's SELECT in the same statement as the permit; None (read it) for another permit."""
        return getattr(permit, STAMP, None)

    def _sql(self, shape: Shape, write: Callable[..., str]) -> str:
        if shape not in self._written:
            self._written[shape] = write(*shape[:1], *shape[2:])
        return self._written[shape]

    @staticmethod
    def _drivers_sql(db: str, count: int) -> str:
        """Driver's ordering is (operator, role, person__name): the person's name is joined for it, as the ORM
        does, so two links of one person come in the same order (the later one wins in standing._Rows)."""
        quote = connections[db].ops.quote_name
        meta, person = Driver._meta, Person._meta
        column = {f.name: quote(f.column) for f in meta.concrete_fields}
        columns = ", ".join(f"d.{quote(f.column)}" for f in DRIVER_FIELDS)
        marks = ", ".join(["%s"] * count)
        name = quote(_column(Person, "name"))
        return (
            f"SELECT {columns} FROM {quote(meta.db_table)} d "
            f"INNER JOIN {quote(person.db_table)} p ON d.{column['person']} = p.{quote(person.pk.column)} "
            f"WHERE d.{column['operator']} IN ({marks}) AND d.{column['active']} = %s "
            f"ORDER BY d.{column['operator']} ASC, d.{column['role']} ASC, p.{name} ASC"
        )

    @staticmethod
    def _documents_sql(db: str, owners: tuple[tuple[str, int], ...], kinds: int) -> str:
        quote = connections[db].ops.quote_name
        meta = Document._meta
        columns = ", ".join(quote(f.column) for f in DOCUMENT_FIELDS)
        owned = " OR ".join(
            f"{quote(_column(Document, column))} IN ({', '.join(['%s'] * count)})" for column, count in owners
        )
        marks = ", ".join(["%s"] * kinds)
        return (
            f"SELECT {columns} FROM {quote(meta.db_table)} "
            f"WHERE ({owned}) AND {quote(_column(Document, 'kind'))} IN ({marks}) "
            f"ORDER BY {quote(_column(Document, 'valid_until'))} ASC"
        )

    def _run(
        self, db: str, sql: str, params: list[Any], fields: Sequence[Field[Any, Any]]
    ) -> list[list[Any]]:
        connection = connections[db]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        chains = self._chains(db, fields)
        found = []
        for row in rows:
            values = list(row)
            for index, (column, chain) in enumerate(chains):
                for convert in chain:
                    values[index] = convert(values[index], column, connection)
            found.append(values)
        return found

    def _chains(self, db: str, fields: Sequence[Field[Any, Any]]) -> list[tuple[Any, tuple[Converter, ...]]]:
        """What the ORM applies to each column it reads (SQLite dates and booleans…), found once."""
        key = (db, tuple(id(f) for f in fields))
        if key not in self._converters:
            connection = connections[db]
            found = []
            for field in fields:
                column = field.get_col(field.model._meta.db_table)
                own = field.get_db_converters(connection)  # type: ignore[attr-defined]  # not in the stubs
                found.append((column, tuple(connection.ops.get_db_converters(column) + own)))
            self._converters[key] = found
        return self._converters[key]


PUBLIC_ROWS = PublicRows()
