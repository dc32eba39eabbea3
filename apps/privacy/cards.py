"""Home card from privacy: the encarregado's (DPO's) queue of data-subject requests."""

from __future__ import annotations

from django.urls import reverse

from apps.audit.models import DataSubjectRequest
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card


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
        link_url=reverse("privacy:request_list"),
        link_label="Ver requerimentos",
    )
