"""Home card for agents: their autos by state, with the way to a new auto."""

from __future__ import annotations

from django.db.models import Count
from django.urls import reverse

from apps.enforcement.choices import CaseState
from apps.enforcement.models import InfractionCase
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card


@register_card
def agent_cases_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "enforcement.infractioncase", "file"):
        return None
    rows = (
        InfractionCase.objects.for_user(ctx.user, "view")
        .filter(municipality=ctx.municipality)
        .of_agent(ctx.user)
        .values("state")
        .annotate(total=Count("id"))
        .order_by()
    )
    counts = {row["state"]: row["total"] for row in rows}
    items = tuple(CardItem(label, counts[value]) for value, label in CaseState.choices if value in counts)
    return Card(
        key="agent_cases",
        title="Meus autos de infração",
        items=items,
        order=40,
        link_url=reverse("enforcement:case_new", args=[ctx.municipality.ibge_code]),
        link_label="Lavrar novo auto",
        empty_message="Você ainda não lavrou autos.",
    )
