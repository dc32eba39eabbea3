"""Home card from audit: what was recorded today in the municipality."""

from __future__ import annotations

from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.audit.services import PERSONAL_DATA_READ
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card


@register_card
def audit_today_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "audit.auditevent", "view"):
        return None
    today = AuditEvent.objects.for_user(ctx.user, "view").filter(
        municipality=ctx.municipality, occurred_at__date=ctx.today
    )
    items = (
        CardItem("Eventos registrados hoje", today.count()),
        CardItem("Leituras de dados pessoais hoje", today.filter(action=PERSONAL_DATA_READ).count()),
    )
    return Card(
        key="audit_today",
        title="Auditoria de hoje",
        items=items,
        order=30,
        link_url=f"{reverse('audit:event_list')}?municipality={ctx.municipality.ibge_code}",
        link_label="Ver trilha de auditoria",
    )
