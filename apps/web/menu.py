"""Main-menu entries contributed by any app, shown for the municipality on screen.

An app registers its entries in its AppConfig.ready():

    from apps.web.menu import MenuEntry, municipality_url, register_menu_entry

    register_menu_entry(MenuEntry(
        key="permits", label="Autorizações", order=30,
        url=municipality_url("licensing:permit_list"),
        model_label="licensing.permit", action="view",
    ))

An entry appears only when the user may do `action` on `model_label` in that municipality
(the same permission matrix as the querysets), so the menu never links to a 404.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.urls import reverse

from apps.tenancy.querysets import user_can

if TYPE_CHECKING:
    from apps.tenancy.models import Municipality


@dataclass(frozen=True)
class MenuEntry:
    key: str
    label: str
    url: Callable[[Municipality], str]
    model_label: str
    action: str = "view"
    order: int = 100


@dataclass(frozen=True)
class MenuLink:
    key: str
    label: str
    href: str


_ENTRIES: dict[str, MenuEntry] = {}


def municipality_url(name: str, *args: Any) -> Callable[[Municipality], str]:
    """The entry's link: the named page of the municipality on screen (its IBGE code first, then ``args``)."""

    def url(municipality: Municipality) -> str:
        return reverse(name, args=[municipality.ibge_code, *args])

    return url


def register_menu_entry(entry: MenuEntry) -> MenuEntry:
    """Registering the same key again replaces the entry (module re-import stays harmless)."""
    _ENTRIES[entry.key] = entry
    return entry


def menu_for(user: Any, municipality: Municipality | None) -> list[MenuLink]:
    if municipality is None:
        return []
    entries = sorted(_ENTRIES.values(), key=lambda entry: (entry.order, entry.label))
    return [
        MenuLink(entry.key, entry.label, entry.url(municipality))
        for entry in entries
        if user_can(user, municipality.pk, entry.model_label, entry.action)
    ]
