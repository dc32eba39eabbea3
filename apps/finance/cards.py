"""Home card from finance: open and overdue guides, guides waiting for a value, and refunds to pay, with a link
to the guides list."""

from __future__ import annotations

from django.db.models import Count, Q
from django.urls import reverse

from apps.finance.choices import GuideStatus, RefundStatus
from apps.finance.models import PaymentGuide, Refund, WaitingGuide
from apps.finance.selectors import waiting_guides
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card


@register_card
def finance_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "finance.paymentguide", "view"):
        return None
    guides = PaymentGuide.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality)
    counts = guides.aggregate(
        open=Count("id", filter=Q(status=GuideStatus.OPEN)),
        overdue=Count("id", filter=Q(status=GuideStatus.OPEN, due_on__lt=ctx.today)),
        paid=Count("id", filter=Q(status=GuideStatus.PAID)),
    )
    listing = reverse("finance:guide_list", args=[ctx.municipality.ibge_code])
    items = [
        CardItem("Guias em aberto", counts["open"], f"{listing}?status={GuideStatus.OPEN}"),
        CardItem("Vencidas", counts["overdue"], f"{listing}?status=overdue"),
        CardItem("Pagas", counts["paid"], f"{listing}?status={GuideStatus.PAID}"),
    ]
    waiting = waiting_guides(ctx.municipality) & WaitingGuide.objects.for_user(ctx.user, "view")
    if waiting.exists():  # shown only when some guide waits for a value (a new year's UFESP, a UFM)
        queue = reverse("finance:waiting_list", args=[ctx.municipality.ibge_code])
        items.append(CardItem("Aguardando valor", waiting.count(), queue))
    if user_can(ctx.user, ctx.municipality.pk, "finance.refund", "view"):
        pending = Refund.objects.for_user(ctx.user, "view").filter(
            payment__guide__municipality=ctx.municipality, status=RefundStatus.PENDING
        )
        items.append(CardItem("Restituições a pagar", pending.count()))
    return Card(
        key="finance",
        title="Financeiro",
        items=tuple(items),
        order=60,
        link_url=listing,
        link_label="Ver guias",
    )
