"""Home card from the registry: operators by situation, vehicles, and documents expiring within 30 days."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from apps.registry.choices import DocumentStatus, OperatorStatus
from apps.registry.models import Document, Operator, Vehicle
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card

EXPIRY_HORIZON_DAYS = 30


@register_card
def registry_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "registry.operator", "view"):
        return None
    operators = Operator.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality)
    vehicles = Vehicle.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality)
    horizon = ctx.today + dt.timedelta(days=EXPIRY_HORIZON_DAYS)
    expiring = Document.objects.for_user(ctx.user, "view").filter(
        municipality=ctx.municipality, status=DocumentStatus.VALID, valid_until__range=(ctx.today, horizon)
    )
    items = (
        CardItem("Autorizatários ativos", operators.filter(status=OperatorStatus.ACTIVE).count()),
        CardItem("Autorizatários em cadastro", operators.filter(status=OperatorStatus.PENDING).count()),
        CardItem("Veículos cadastrados", vehicles.count()),
        CardItem(f"Documentos que vencem em {EXPIRY_HORIZON_DAYS} dias", expiring.count()),
    )
    return Card(
        key="registry",
        title="Cadastro",
        items=items,
        order=40,
        link_url=reverse("registry:operator_list", args=[ctx.municipality.ibge_code]),
        link_label="Abrir o cadastro",
    )
