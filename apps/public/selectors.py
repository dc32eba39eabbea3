"""The public lookup's SELECT, written once per process instead of compiled by the ORM on every request (issue 12:
the compilation was a large share of a lookup's CPU).

It reads what

    Permit.objects.select_related("municipality", "vehicle", "operator__person", "operator__company")
        .only(*PUBLIC_FIELDS).order_by().filter(...)

reads — the same columns (the whitelist PUBLIC_FIELDS, plus the keys that join the rows), the same joins, the
same conditions — and returns the same Permit objects with their related objects attached, so
licensing.standing and verification.present read them unchanged (tests/test_selectors.py compares the two).

Each permit also carries, as ``config_stamp``, its town's law-configuration stamp read by a subquery of the same
SELECT (lawconfig.models.ConfigStamp; "" when the town has none), which the standing hands to
lawconfig.config.config_for instead of reading it in a statement of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections, router
from django.db.models import Field, ForeignKey, Model

from apps.lawconfig.models import ConfigStamp
from apps.licensing.models import Permit

Converter = Callable[[Any, Any, Any], Any]
STAMP = "config_stamp"  # the attribute each permit gets: its town's configuration stamp, read with it


@dataclass(frozen=True)
class Part:
    """One model of the SELECT: the permit (path "") or a row joined to it ("operator__person")."""

    path: str
    alias: str
    model: type[Model]
    fields: tuple[Field[Any, Any], ...]  # in the model's order, as Model.from_db expects
    link: ForeignKey[Any, Any] | None  # the key of the parent part that joins this one
    parent: str | None

    @property
    def attnames(self) -> tuple[str, ...]:
        return tuple(field.attname for field in self.fields)


def parts(public_fields: Sequence[str]) -> tuple[Part, ...]:
    """The models the whitelist names, each with its whitelisted columns plus its key and the keys of the parts
    joined to it (what .only() adds on its own)."""
    wanted: dict[str, set[str]] = {"": set()}
    for name in public_fields:
        path, _, field = name.rpartition("__")
        wanted.setdefault(path, set()).add(field)
        while path:  # every step of a path is joined, and its key selected by the parent
            parent, _, step = path.rpartition("__")
            wanted.setdefault(parent, set()).add(step)
            path = parent
    found: list[Part] = []
    for index, path in enumerate(sorted(wanted, key=lambda p: (p.count("__"), p))):
        model, link, parent_path = _model_at(path)
        pk = model._meta.pk.name if model._meta.pk is not None else "id"
        names = {pk if n == "pk" else n for n in wanted[path]} | {pk}
        fields = tuple(f for f in model._meta.concrete_fields if f.name in names)
        found.append(Part(path, f"t{index}", model, fields, link, parent_path))
    return tuple(found)


def _model_at(path: str) -> tuple[type[Model], ForeignKey[Any, Any] | None, str | None]:
    model: type[Model] = Permit
    link: ForeignKey[Any, Any] | None = None
    for step in path.split("__") if path else []:
        link = model._meta.get_field(step)  # type: ignore[assignment]
        model = link.related_model  # type: ignore[union-attr,assignment]
    return model, link, (path.rpartition("__")[0] if path else None)


class Lookup:
    """The SELECT for the given whitelist; `run(where, params)` adds conditions on the permit's columns
    ("{permit.year}") or a joined row's ("{vehicle.plate}")."""

    def __init__(self, public_fields: Sequence[str]) -> None:
        self.parts = parts(public_fields)
        self.by_path = {part.path: part for part in self.parts}
        self._written: dict[tuple[str, str], str] = {}
        self._converters: dict[str, list[tuple[Any, tuple[Converter, ...]]]] = {}

    def column(self, db: str, path: str, field: str) -> str:
        part = self.by_path["" if path == "permit" else path]
        column = part.model._meta.get_field(field).column  # type: ignore[union-attr]  # a concrete field
        return f"{part.alias}.{connections[db].ops.quote_name(str(column))}"

    def sql(self, db: str, where: str) -> str:
        """Written once per database and condition, then reused."""
        key = (db, where)
        if key not in self._written:
            self._written[key] = self._write(db, where)
        return self._written[key]

    def _write(self, db: str, where: str) -> str:
        quote = connections[db].ops.quote_name
        columns = [f"{p.alias}.{quote(f.column)}" for p in self.parts for f in p.fields]
        root = self.parts[0]
        joins = [f"FROM {quote(root.model._meta.db_table)} {root.alias}"]
        for part in self.parts[1:]:
            link, parent = part.link, self.by_path[part.parent or ""]
            assert link is not None
            outer = link.null or (parent.link is not None and parent.link.null)
            joins.append(
                f"{'LEFT OUTER JOIN' if outer else 'INNER JOIN'} {quote(part.model._meta.db_table)} {part.alias} "
                f"ON {parent.alias}.{quote(link.column)} = {part.alias}.{quote(link.target_field.column)}"
            )
        columns.append(self._stamp(db, root.alias))
        condition = where.format_map(_Columns(self, db))
        return f"SELECT {', '.join(columns)} {' '.join(joins)} WHERE {condition}"

    @staticmethod
    def _stamp(db: str, alias: str) -> str:
        """The town's configuration stamp, a subquery on its one-to-one row (so NULL when there is none)."""
        quote = connections[db].ops.quote_name
        town = quote(Permit._meta.get_field("municipality").column)
        stamp = ConfigStamp._meta
        key = quote(stamp.get_field("municipality").column)
        token = quote(stamp.get_field("token").column)
        return f"(SELECT s.{token} FROM {quote(stamp.db_table)} s WHERE s.{key} = {alias}.{town})"

    def run(self, where: str, params: Sequence[Any]) -> list[Permit]:
        db = router.db_for_read(Permit)
        with connections[db].cursor() as cursor:
            cursor.execute(self.sql(db, where), list(params))
            rows = cursor.fetchall()
        return [self._permit(db, row) for row in rows]

    def _converters_for(self, db: str) -> list[tuple[Any, tuple[Converter, ...]]]:
        """What the ORM applies to each column it reads (JSON decoding, SQLite dates…)."""
        if db not in self._converters:
            connection = connections[db]
            found = []
            for part in self.parts:
                for field in part.fields:
                    column = field.get_col(part.alias)
                    own = field.get_db_converters(connection)  # type: ignore[attr-defined]  # not in the stubs
                    chain = connection.ops.get_db_converters(column) + own
                    found.append((column, tuple(chain)))
            self._converters[db] = found
        return self._converters[db]

    def _permit(self, db: str, row: Sequence[Any]) -> Permit:
        connection, values = connections[db], list(row)
        for index, (column, chain) in enumerate(self._converters_for(db)):
            for convert in chain:
                values[index] = convert(values[index], column, connection)
        made: dict[str, Model | None] = {}
        start = 0
        for part in self.parts:
            own = values[start : start + len(part.fields)]
            start += len(part.fields)
            made[part.path] = None if own[0] is None else part.model.from_db(db, part.attnames, own)
            parent = made.get(part.parent) if part.parent is not None else None
            if part.link is not None and parent is not None:
                part.link.set_cached_value(parent, made[part.path])
        permit = made[""]
        assert isinstance(permit, Permit)
        setattr(permit, STAMP, values[start] or "")
        return permit


class _Columns(dict[str, Any]):
    """format_map target: "{permit.year}" → t0."year", "{vehicle.plate}" → t2."plate"."""

    def __init__(self, lookup: Lookup, db: str) -> None:
        super().__init__()
        self.lookup, self.db = lookup, db

    def __missing__(self, path: str) -> Any:
        return _Fields(self.lookup, self.db, path)


class _Fields:
    def __init__(self, lookup: Lookup, db: str, path: str) -> None:
        self.lookup, self.db, self.path = lookup, db, path

    def __getattr__(self, field: str) -> str:
        return self.lookup.column(self.db, self.path, field)
