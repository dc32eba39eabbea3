"""Home card: open public complaints and this week's public lookups (how many, never who)."""

from __future__ import annotations

import datetime as dt

from django.db.models import Count
from django.urls import reverse

from apps.public.choices import OPEN_COMPLAINT_STATES, ComplaintState
from apps.public.models import Complaint
from apps.public.stats import lookup_totals
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card


@register_card
def complaints_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "public.complaint", "view"):
        return None
    rows = (
        Complaint.objects.for_user(ctx.user, "view")
        .filter(municipality=ctx.municipality, state__in=OPEN_COMPLAINT_STATES)
        .values("state")
        .annotate(total=Count("id"))
        .order_by()
    )
    counts = {row["state"]: row["total"] for row in rows}
    items = [CardItem(label, counts[value]) for value, label in ComplaintState.choices if value in counts]
    if user_can(ctx.user, ctx.municipality.pk, "public.lookupcount", "view"):
        totals = lookup_totals(
            municipality=ctx.municipality, since=ctx.today - dt.timedelta(days=6), until=ctx.today
        )
        items.append(CardItem("Consultas públicas nos últimos 7 dias", sum(totals.values())))
    return Card(
        key="complaints",
        title="Denúncias do público",
        items=tuple(items),
        order=50,
        link_url=reverse("public:complaint-queue", args=[ctx.municipality.ibge_code]),
        link_label="Abrir a fila de denúncias",
        empty_message="Nenhuma denúncia aberta.",
    )
