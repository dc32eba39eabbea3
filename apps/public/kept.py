"""Reference rows every public request reads and a secretariat changes a few times a year — the towns of the
lookup form and the towns' published contacts — kept in the server process for PUBLIC_MUNICIPALITY_TTL seconds
(0: read on every request).

A change saved in this process drops them at once (the signals connected in apps.py); another server process
sees it within the TTL. At school-start peaks these reads were most of the lookup's database round trips. The
towns' law configuration is not kept here: a decision must never use a stale one, and lawconfig.config serves it
from its own cache, checked against the database's stamp on every call.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from apps.public import conf
from apps.tenancy.models import Municipality

T = TypeVar("T")


class Kept(Generic[T]):
    """One value, loaded when first asked and again once PUBLIC_MUNICIPALITY_TTL seconds have passed."""

    def __init__(self, load: Callable[[], T]) -> None:
        self._load = load
        self._entry: tuple[float, T] | None = None

    def get(self) -> T:
        entry, now = self._entry, time.monotonic()
        if entry is None or entry[0] <= now:
            entry = (now + conf.municipality_ttl_seconds(), self._load())
            self._entry = entry
        return entry[1]

    def forget(self) -> None:
        self._entry = None


def _choices() -> list[tuple[str, str]]:
    rows = Municipality.objects.order_by("name").values_list("ibge_code", "name", "uf")
    return [(ibge, f"{name}-{uf}") for ibge, name, uf in rows]


TOWN_CHOICES: Kept[list[tuple[str, str]]] = Kept(_choices)
TOWNS: Kept[list[Municipality]] = Kept(lambda: list(Municipality.objects.order_by("name")))
CONTACTS: Kept[list[Municipality]] = Kept(
    lambda: list(Municipality.objects.exclude(public_contact="").order_by("name"))
)
ALL = (TOWN_CHOICES, TOWNS, CONTACTS)


def forget_towns(**kwargs: Any) -> None:
    """A municipality saved or deleted: its name, contact or regimes may have changed."""
    for kept in ALL:
        kept.forget()
