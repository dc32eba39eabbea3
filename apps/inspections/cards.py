"""Home card for inspectors: today's inspections, overdue ones and re-inspections waiting for the vehicle."""

from __future__ import annotations

from django.db.models import Count, Q
from django.urls import reverse

from apps.inspections.choices import InspectionKind, InspectionResult
from apps.inspections.models import Inspection, MissedInspection
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card

MODEL = "inspections.inspection"


def overdue_filter(today: object) -> Q:
    """Pending and past its day, or past the legal deadline (Patrocínio art. 8 / art. 9 § 3)."""
    return Q(result=InspectionResult.PENDING) & (Q(scheduled_for__lt=today) | Q(deadline__lt=today))


@register_card
def inspections_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, MODEL, "change"):
        return None
    rows = Inspection.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality)
    counts = rows.aggregate(
        today=Count("id", filter=Q(result=InspectionResult.PENDING, scheduled_for=ctx.today)),
        overdue=Count("id", filter=overdue_filter(ctx.today)),
        reinspections=Count(
            "id", filter=Q(result=InspectionResult.PENDING, kind=InspectionKind.REINSPECTION)
        ),
    )
    items = (
        CardItem("Agendadas para hoje", counts["today"]),
        CardItem("Atrasadas", counts["overdue"]),
        CardItem("Novas vistorias pendentes", counts["reinspections"]),
    )
    return Card(
        key="inspections",
        title="Vistorias",
        items=items,
        order=40,
        link_url=reverse("inspections:agenda", args=[ctx.municipality.ibge_code]),
        link_label="Minha agenda",
    )


@register_card
def missed_inspections_card(ctx: CardContext) -> Card | None:
    """For agents: missed calendar inspections the daily sweep found, waiting for the auto or a dismissal."""
    if not user_can(ctx.user, ctx.municipality.pk, "inspections.missedinspection", "change"):
        return None
    pending = (
        MissedInspection.objects.for_user(ctx.user, "view").filter(municipality=ctx.municipality).pending()
    )
    if not pending.exists():
        return None
    return Card(
        key="missed_inspections",
        title="Vistorias não realizadas",
        items=(CardItem("Aguardando o agente", pending.count()),),
        order=41,
        link_url=reverse("inspections:missed", args=[ctx.municipality.ibge_code]),
        link_label="Lavrar ou descartar",
    )
