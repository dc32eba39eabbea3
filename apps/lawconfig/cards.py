"""Home card for administrators: the values the municipality's laws will need next year and do not have yet
(yearly.missing_values), each with the link to where it is entered. Shown only while something is missing."""

from __future__ import annotations

from django.urls import reverse

from apps.lawconfig.yearly import missing_values
from apps.tenancy.models import is_deployment_admin
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card


@register_card
def next_year_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "lawconfig.parametervalue", "change"):
        return None
    missing = missing_values(municipality=ctx.municipality, today=ctx.today)
    if not missing:
        return None
    installer = is_deployment_admin(ctx.user)
    items = tuple(
        CardItem(
            need.what,
            f"falta — a partir de {need.needed_on:%d/%m/%Y}, cadastro pelo {need.who}",
            need.url if installer or not need.by_installation else "",  # a link only to a page they may open
        )
        for need in missing
    )
    return Card(
        key="lawconfig_next_year",
        title="Valores que a lei vai exigir",
        items=items,
        order=5,
        link_url=reverse("lawconfig:overview", args=[ctx.municipality.ibge_code]),
        link_label="Abrir a configuração legal",
    )
