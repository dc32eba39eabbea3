"""Home card for administrators: the municipality's legal configuration at a glance."""

from __future__ import annotations

from django.urls import reverse

from apps.finance.formatting import brl_unit_value
from apps.lawconfig.models import FiscalUnitValue, InterpretationChoice, MunicipalClosure
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card


@register_card
def lawconfig_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "lawconfig.interpretationchoice", "change"):
        return None
    latest_ufm = (
        FiscalUnitValue.objects.for_user(ctx.user, "view")
        .filter(municipality=ctx.municipality, valid_from__lte=ctx.today)
        .order_by("-valid_from")
        .first()
    )
    choices = InterpretationChoice.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality)
    closures = MunicipalClosure.objects.for_user(ctx.user, "view").filter(
        municipality=ctx.municipality, date__gte=ctx.today
    )
    items = (
        CardItem(
            f"{latest_ufm.unit_label} vigente" if latest_ufm else "Unidade fiscal do município",
            brl_unit_value(latest_ufm.value_brl) if latest_ufm else "não informada",
        ),
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
