"""Home-page cards contributed by any app, so web never has to know about later apps.

An app registers a provider in its AppConfig.ready():

    from apps.web.cards import Card, CardItem, register_card

    @register_card
    def permits_card(ctx: CardContext) -> Card | None:
        ...  # query through .for_user(ctx.user, "view"); return None when the user may not see it

Providers get the signed-in user, the municipality shown and the local date; they must read
through the tenancy gate like any other staff read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apps.tenancy.models import Municipality


@dataclass(frozen=True)
class CardItem:
    """One figure of a card; ``url`` is the list that shows exactly the rows counted (its count must agree)."""

    label: str
    value: int | str
    url: str = ""


@dataclass(frozen=True)
class Card:
    key: str
    title: str
    items: tuple[CardItem, ...]
    order: int = 100
    link_url: str = ""
    link_label: str = ""
    empty_message: str = "Nenhum registro."


@dataclass(frozen=True)
class CardContext:
    user: Any
    municipality: Municipality
    today: date


CardProvider = Callable[[CardContext], Card | None]

_PROVIDERS: dict[str, CardProvider] = {}


def register_card(provider: CardProvider) -> CardProvider:
    """Decorator; registering the same function twice (module re-import) keeps one entry."""
    _PROVIDERS[f"{provider.__module__}.{provider.__qualname__}"] = provider
    return provider


def cards_for(ctx: CardContext) -> list[Card]:
    cards = [card for provider in _PROVIDERS.values() if (card := provider(ctx)) is not None]
    return sorted(cards, key=lambda card: (card.order, card.title))
