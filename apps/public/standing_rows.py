"""The document standing's reads for the public lookup, written once per process instead of compiled by the ORM
on every request (issue 12: compiling them was the largest share of a lookup's CPU).

licensing.standing reads, for the permits it decides on, the operators' active drivers and the owners'
mandatory documents through a RowReader. OrmRows there is the ORM's

    Driver.objects.filter(operator_id__in=…, active=True).only(*DRIVER_COLUMNS)
    Document.objects.filter(Q(vehicle_id__in=…) | Q(operator_id__in=…) | …, kind__in=…)
        .order_by("valid_until", "pk").values(*DOCUMENT_COLUMNS)

and PublicRows below is the same two SELECTs — same columns, same conditions, same order (the models' default
ordering, documents' ties by key) — joined by UNION ALL into one statement (one round trip), written once per
database and shape (how many ids of each kind) and reused. The configuration stamp comes with the permit
(apps.public.selectors). tests/test_standing_rows.py compares the two readers.
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
DRIVER_ATTNAMES = tuple(field.attname for field in DRIVER_FIELDS)
DOCUMENT_FIELDS = tuple(
    _fields(Document, [name])[0] for name in DOCUMENT_COLUMNS
)  # in DOCUMENT_COLUMNS' order
# A row of PublicRows.rows: its part (DRIVER_ROW or DOCUMENT_ROW), the driver's columns, the driver's person's
# name (at NAME), the document's columns (from NAME + 1 to DOCUMENT_KEY), the document's key.
DRIVER_ROW, DOCUMENT_ROW = 0, 1
NAME = 1 + len(DRIVER_FIELDS)
DOCUMENT_KEY = NAME + 1 + len(DOCUMENT_FIELDS)


def _drivers_part(quote: Callable[[str], str], count: int) -> str:
    meta, person = Driver._meta, Person._meta
    column = {f.name: quote(f.column) for f in meta.concrete_fields}
    columns = ", ".join(f"d.{quote(f.column)}" for f in DRIVER_FIELDS)
    nulls = ", ".join(["NULL"] * len(DOCUMENT_FIELDS))
    marks = ", ".join(["%s"] * count)
    name = quote(_column(Person, "name"))
    return (
        f"SELECT {DRIVER_ROW}, {columns}, p.{name}, {nulls}, NULL FROM {quote(meta.db_table)} d "
        f"INNER JOIN {quote(person.db_table)} p ON d.{column['person']} = p.{quote(person.pk.column)} "
        f"WHERE d.{column['operator']} IN ({marks}) AND d.{column['active']} = %s"
    )


def _documents_part(quote: Callable[[str], str], owners: tuple[tuple[str, int], ...], kinds: int) -> str:
    nulls = ", ".join(["NULL"] * (len(DRIVER_FIELDS) + 1))
    columns = ", ".join(quote(f.column) for f in DOCUMENT_FIELDS)
    key = quote(Document._meta.pk.column)
    owned = " OR ".join(
        f"{quote(_column(Document, column))} IN ({', '.join(['%s'] * count)})" for column, count in owners
    )
    marks = ", ".join(["%s"] * kinds)
    return (
        f"SELECT {DOCUMENT_ROW}, {nulls}, {columns}, {key} FROM {quote(Document._meta.db_table)} "
        f"WHERE ({owned}) AND {quote(_column(Document, 'kind'))} IN ({marks})"
    )


class PublicRows:
    """A licensing.standing.RowReader over SQL written once per (database, shape)."""

    def __init__(self) -> None:
        self._written: dict[Shape, str] = {}
        self._converters: dict[Shape, list[tuple[Any, tuple[Converter, ...]]]] = {}

    def rows(
        self, operator_ids: list[int], owners: dict[str, list[int]], kinds: list[str]
    ) -> tuple[list[Driver], list[dict[str, Any]]]:
        """The drivers and the documents in one statement: the two SELECTs joined by UNION ALL, each row padded
        with NULLs where the other's columns are and told apart by its first column (one round trip a lookup
        instead of two). No documents are read when no owner or kind is asked for."""
        with_documents = bool(owners) and bool(kinds)
        if not operator_ids and not with_documents:
            return [], []
        db = router.db_for_read(Document)
        documents_shape = (
            tuple((column, len(ids)) for column, ids in owners.items()) if with_documents else ()
        )
        shape = (db, "rows", len(operator_ids), documents_shape, len(kinds) if with_documents else 0)
        sql = self._sql(shape, self._rows_sql)
        params: list[Any] = [*operator_ids, True] if operator_ids else []
        if with_documents:
            params += [*(pk for ids in owners.values() for pk in ids), *kinds]
        drivers: list[Driver] = []
        documents: list[dict[str, Any]] = []
        for row in self._run(db, sql, params):
            if row[0] == DRIVER_ROW:
                drivers.append(Driver.from_db(db, DRIVER_ATTNAMES, row[1:NAME]))
            else:
                documents.append(dict(zip(DOCUMENT_COLUMNS, row[NAME + 1 : DOCUMENT_KEY], strict=True)))
        return drivers, documents

    def drivers(self, operator_ids: list[int]) -> list[Driver]:
        return self.rows(operator_ids, {}, [])[0]

    def documents(self, owners: dict[str, list[int]], kinds: list[str]) -> list[dict[str, Any]]:
        return self.rows([], owners, kinds)[1]

    def stamp(self, permit: Permit) -> str | None:
        """Read by the lookup's SELECT in the same statement as the permit; None (read it) for another permit."""
        return getattr(permit, STAMP, None)

    def _sql(self, shape: Shape, write: Callable[..., str]) -> str:
        if shape not in self._written:
            self._written[shape] = write(*shape[:1], *shape[2:])
        return self._written[shape]

    @staticmethod
    def _rows_sql(db: str, drivers: int, owners: tuple[tuple[str, int], ...], kinds: int) -> str:
        """Each row: its part, DRIVER_FIELDS, the driver's person's name (for the order), DOCUMENT_FIELDS.
        The drivers first, in Driver's ordering (operator, role, person__name: the
        name joined as the ORM does, so two links of one person come in the same order — the later one wins
        in standing._Rows), then the documents in Document's (valid_until), ties by key like OrmRows."""
        quote = connections[db].ops.quote_name
        parts = []
        if drivers:
            parts.append(_drivers_part(quote, drivers))
        if owners:
            parts.append(_documents_part(quote, owners, kinds))
        # ORDER BY counts columns from 1, a row's list from 0
        operator, role = (2 + DRIVER_ATTNAMES.index(name) for name in ("operator_id", "role"))
        valid_until = NAME + 2 + DOCUMENT_COLUMNS.index("valid_until")
        order = f"1, {operator}, {role}, {NAME + 1}, {valid_until}, {DOCUMENT_KEY + 1}"
        return f"{' UNION ALL '.join(parts)} ORDER BY {order}"

    def _run(self, db: str, sql: str, params: list[Any]) -> list[list[Any]]:
        connection = connections[db]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        drivers = self._chains(db, DRIVER_FIELDS)
        documents = self._chains(db, DOCUMENT_FIELDS)
        found = []
        for row in rows:
            values = list(row)
            start, chains = (1, drivers) if values[0] == DRIVER_ROW else (NAME + 1, documents)
            for index, (column, chain) in enumerate(chains, start):
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
