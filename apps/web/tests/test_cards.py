from __future__ import annotations

from datetime import date

import pytest

from apps.accounts.models import User
from apps.tenancy.models import Municipality
from apps.web import cards
from apps.web.cards import Card, CardContext, CardItem, cards_for, register_card


@pytest.fixture
def isolated_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cards, "_PROVIDERS", {})


def test_it_collects_cards_from_registered_providers_in_order(isolated_registry: None) -> None:
    @register_card
    def second(ctx: CardContext) -> Card:
        return Card(key="b", title="B", items=(CardItem("x", 1),), order=2)

    @register_card
    def first(ctx: CardContext) -> Card:
        return Card(key="a", title="A", items=(), order=1)

    @register_card
    def hidden(ctx: CardContext) -> None:
        return None

    ctx = CardContext(user=None, municipality=Municipality(name="X"), today=date(2026, 3, 1))
    assert [card.key for card in cards_for(ctx)] == ["a", "b"]


def test_it_registers_a_provider_once(isolated_registry: None) -> None:
    def provider(ctx: CardContext) -> None:
        return None

    register_card(provider)
    register_card(provider)
    assert len(cards._PROVIDERS) == 1


@pytest.mark.django_db
def test_it_has_the_foundation_cards_registered_at_startup(
    analyst_olimpia: User, olimpia: Municipality
) -> None:
    ctx = CardContext(user=analyst_olimpia, municipality=olimpia, today=date(2026, 3, 1))
    keys = {card.key for card in cards_for(ctx)}
    assert {"team", "regimes"} <= keys  # later apps add their own cards
    assert "audit_today" not in keys  # analysts may not see the audit trail
