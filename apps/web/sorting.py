"""Sortable columns of the staff lists: ``?ordering=<key>`` (or ``-<key>`` for descending) on the list's URL.

A list declares its sortable columns (Portuguese label → ORM fields) and its default; the view orders the same
queryset it pages and exports, so the download comes in the order the screen shows. The header link of each
column toggles the direction and carries ``aria-sort`` for screen readers::

    SORTS = Sorting.columns(("numero", "Número", ("-year", "-sequence")), ...)
    sort = SORTS.read(request)
    rows = rows.order_by(*sort.order_by)
    context["sort"] = sort.headers(request)    # {% include "web/_sort_header.html" with column=sort.numero %}

An unknown key falls back to the default (a stale bookmark still opens the list)."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest

PARAMETER = "ordering"


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    fields: tuple[str, ...]  # ascending order; a tie-breaker (pk) keeps pages stable


@dataclass(frozen=True)
class SortHeader:
    label: str
    url: str
    aria_sort: str  # "ascending" | "descending" | "none"


@dataclass(frozen=True)
class Sort:
    spec: Sorting
    key: str
    descending: bool

    @property
    def order_by(self) -> tuple[str, ...]:
        fields = self.spec.by_key[self.key].fields
        return tuple(_flip(name) for name in fields) if self.descending else fields

    def headers(self, request: HttpRequest) -> dict[str, SortHeader]:
        return {key: self._header(request, column) for key, column in self.spec.by_key.items()}

    def _header(self, request: HttpRequest, column: Column) -> SortHeader:
        current = column.key == self.key
        descending_next = current and not self.descending
        query = request.GET.copy()
        query.pop("pagina", None)
        query[PARAMETER] = f"-{column.key}" if descending_next else column.key
        aria = ("descending" if self.descending else "ascending") if current else "none"
        return SortHeader(column.label, f"?{query.urlencode()}", aria)


@dataclass(frozen=True)
class Sorting:
    by_key: dict[str, Column]
    default: str
    default_descending: bool = False

    @classmethod
    def columns(
        cls, *columns: tuple[str, str, tuple[str, ...]], default: str = "", descending: bool = False
    ) -> Sorting:
        by_key = {key: Column(key, label, fields) for key, label, fields in columns}
        return cls(by_key, default or next(iter(by_key)), descending)

    def read(self, request: HttpRequest) -> Sort:
        raw = str(request.GET.get(PARAMETER, ""))
        key = raw.removeprefix("-")
        if key not in self.by_key:
            return Sort(self, self.default, self.default_descending)
        return Sort(self, key, raw.startswith("-"))

    def chosen(self, request: HttpRequest) -> Sort | None:
        """The column the user clicked, or None: a list with its own "Ordenar por" select keeps that order."""
        key = str(request.GET.get(PARAMETER, "")).removeprefix("-")
        return self.read(request) if key in self.by_key else None

    def unsorted(self) -> Sort:
        """Headers for a list ordered by something else: every column ``aria-sort="none"``, linking ascending."""
        return Sort(self, "", False)


def _flip(name: str) -> str:
    return name[1:] if name.startswith("-") else f"-{name}"
