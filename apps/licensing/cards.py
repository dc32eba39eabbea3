"""Home cards: the analyst's pending applications and the permits in force or about to expire."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

from django.db.models import Count, Q
from django.urls import reverse

from apps.licensing.choices import OPEN_STATES, ApplicationState, PermitState
from apps.licensing.models import Application, Permit
from apps.tenancy.querysets import user_can
from apps.tenancy.regimes import instrument_for
from apps.web.cards import Card, CardContext, CardItem, register_card

EXPIRING_WINDOW_DAYS = 60


@register_card
def pending_applications_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "licensing.application", "view"):
        return None
    rows = (
        Application.objects.for_user(ctx.user, "view")
        .filter(municipality=ctx.municipality, state__in=OPEN_STATES)
        .values("state")
        .annotate(total=Count("id"))
        .order_by()
    )
    counts = {row["state"]: row["total"] for row in rows}
    listing = reverse("licensing:application_list", args=[ctx.municipality.ibge_code])
    items = tuple(
        CardItem(label, counts[value], f"{listing}?{urlencode({'state': value})}")
        for value, label in ApplicationState.choices
        if value in counts
    )
    return Card(
        key="pending_applications",
        title="Requerimentos pendentes",
        items=items,
        order=30,
        link_url=listing,
        link_label="Abrir a fila de análise",
        empty_message="Nenhum requerimento aguardando análise.",
    )


@register_card
def permits_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "licensing.permit", "view"):
        return None
    horizon = ctx.today + dt.timedelta(days=EXPIRING_WINDOW_DAYS)
    totals = (
        Permit.objects.for_user(ctx.user, "view")
        .filter(municipality=ctx.municipality)
        .aggregate(
            active=Count("id", filter=Q(state=PermitState.ACTIVE)),
            suspended=Count("id", filter=Q(state=PermitState.SUSPENDED)),
            expiring=Count(
                "id", filter=Q(state=PermitState.ACTIVE, valid_until__gte=ctx.today, valid_until__lte=horizon)
            ),
        )
    )
    link = reverse("licensing:permit_list", args=[ctx.municipality.ibge_code])
    items = (
        CardItem("Ativos", totals["active"], f"{link}?{urlencode({'state': PermitState.ACTIVE})}"),
        CardItem("Suspensos", totals["suspended"], f"{link}?{urlencode({'state': PermitState.SUSPENDED})}"),
        CardItem(f"Vencem em até {EXPIRING_WINDOW_DAYS} dias", totals["expiring"]),
    )
    return Card(
        key="permits",
        title=instrument_for(ctx.municipality.regimes).plural,
        items=items,
        order=31,
        link_url=link,
        link_label="Ver a lista",
    )
