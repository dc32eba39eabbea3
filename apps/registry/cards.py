"""Home card from the registry: operators by situation, vehicles, and documents expiring within 30 days."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

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
        municipality=ctx.municipality, status=DocumentStatus.VALID, valid_until__lte=horizon
    )
    code = ctx.municipality.ibge_code
    operator_list = reverse("registry:operator_list", args=[code])
    items = (
        CardItem(
            "Autorizatários ativos",
            operators.filter(status=OperatorStatus.ACTIVE).count(),
            f"{operator_list}?{urlencode({'status': OperatorStatus.ACTIVE})}",
        ),
        CardItem(
            "Autorizatários em cadastro",
            operators.filter(status=OperatorStatus.PENDING).count(),
            f"{operator_list}?{urlencode({'status': OperatorStatus.PENDING})}",
        ),
        CardItem("Veículos cadastrados", vehicles.count(), reverse("registry:vehicle_list", args=[code])),
        CardItem(
            f"Documentos válidos que vencem até {horizon:%d/%m/%Y}",
            expiring.count(),
            f"{reverse('registry:document_list', args=[code])}?"
            + urlencode({"status": DocumentStatus.VALID, "valid_until": horizon.isoformat()}),
        ),
    )
    return Card(
        key="registry",
        title="Cadastro",
        items=items,
        order=40,
        link_url=operator_list,
        link_label="Abrir o cadastro",
    )
