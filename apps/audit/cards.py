"""Home card from audit: what was recorded today in the municipality."""

from __future__ import annotations

from django.urls import reverse

from apps.audit.models import AuditEvent, DataSubjectRequest
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


@register_card
def data_subject_requests_card(ctx: CardContext) -> Card | None:
    """The encarregado's queue: requests still open, and those past the 15 days of LGPD art. 19, II."""
    if not user_can(ctx.user, ctx.municipality.pk, "audit.datasubjectrequest", "view"):
        return None
    pending = (
        DataSubjectRequest.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality).pending()
    )
    items = (
        CardItem("Requerimentos de titulares pendentes", pending.count()),
        CardItem("Com prazo vencido (art. 19, II)", pending.filter(due_on__lt=ctx.today).count()),
    )
    return Card(
        key="data_subject_requests",
        title="Requerimentos LGPD",
        items=items,
        order=31,
        link_url=reverse("audit:request_list"),
        link_label="Ver requerimentos",
    )
