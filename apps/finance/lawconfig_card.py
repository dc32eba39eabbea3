"""Home card for administrators: the municipality's legal configuration at a glance.

The fine units shown are the ones each regime declares (units.yaml), valued today by the law engine exactly as a
guide would be — so a UFESP municipality shows the state table's value and a UFM one the value it configured.

It lives in finance, not lawconfig, because the values come from finance's valuation: lawconfig sits below finance
in the layers (docs/architecture.md) and must not import it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.urls import reverse

import lawcode
from apps.finance.formatting import brl_unit_value
from apps.finance.valuation import Charge, valuate
from apps.lawconfig.models import InterpretationChoice, MunicipalClosure
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card
from lawcode.units import FineUnit


@register_card
def lawconfig_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "lawconfig.interpretationchoice", "change"):
        return None
    choices = InterpretationChoice.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality)
    closures = MunicipalClosure.objects.for_user(ctx.user, "view").filter(
        municipality=ctx.municipality, date__gte=ctx.today
    )
    items = (
        *fine_unit_items(ctx.municipality, ctx.today),
        CardItem("Interpretações escolhidas", choices.count()),
        CardItem("Dias sem expediente a seguir", closures.count()),
    )
    return Card(
        key="lawconfig",
        title="Configuração legal",
        items=items,
        order=90,
        link_url=reverse("lawconfig:overview", args=[ctx.municipality.ibge_code]),
        link_label="Configurar",
    )


def fine_unit_items(municipality: Municipality, today: dt.date) -> list[CardItem]:
    """One line per unit the municipality's regimes declare: what one unit is worth today, or that it is
    missing (the guides in that unit cannot be issued until an administrator configures it)."""
    items = []
    for regime_id in municipality.regimes or []:
        for unit in lawcode.get_regime(regime_id).vocabulary.units.values():
            items.append(CardItem(_unit_label(unit), _unit_value_today(municipality, regime_id, unit, today)))
    return items


def _unit_label(unit: FineUnit) -> str:
    if unit.valued_by == "index":
        return f"R$ 1,00 de {unit.base:%d/%m/%Y} atualizado" if unit.base else f"{unit.label} atualizado"
    return f"{unit.label} vigente"


def _unit_value_today(municipality: Municipality, regime_id: str, unit: FineUnit, today: dt.date) -> str:
    charge = Charge(quantity=Decimal(1), unit=unit.key, cite=unit.cite, description=unit.name)
    try:
        valuation = valuate(
            municipality=municipality, regime_id=regime_id, charge=charge, fact_date=today, issue_date=today
        )
    except ValidationError:
        return "não informada"
    return brl_unit_value(valuation.unit_value if valuation.unit_value is not None else valuation.amount_brl)
