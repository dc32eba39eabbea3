"""Home cards: the judges' queues (pending, overdue) and finance's unpaid final fines."""

from __future__ import annotations

from django.urls import reverse

from apps.dueprocess.active_debt import unpaid_final_fines
from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Appeal
from apps.dueprocess.permissions import EXPORT, JUDGE_FIRST, JUDGE_SECOND
from apps.tenancy.querysets import user_can
from apps.web.cards import Card, CardContext, CardItem, register_card

QUEUES = {
    JUDGE_FIRST: (Instance.FIRST, "Recursos em 1ª instância"),
    JUDGE_SECOND: (Instance.SECOND, "Recursos em 2ª instância"),
}


def _queue_card(ctx: CardContext, action: str, order: int) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "dueprocess.appeal", action):
        return None
    instance, title = QUEUES[action]
    rows = (
        Appeal.objects.for_user(ctx.user, action).filter(case__municipality=ctx.municipality).queue(instance)
    )
    overdue = rows.filter(judgment_deadline__lt=ctx.today).count()
    return Card(
        key=f"queue_{instance}",
        title=title,
        order=order,
        items=(
            CardItem("Aguardando julgamento", rows.count()),
            CardItem("Prazo de julgamento vencido", overdue),
        ),
        link_url=reverse("dueprocess:queue", args=[ctx.municipality.ibge_code, instance]),
        link_label="Abrir a fila",
        empty_message="Nenhum recurso aguardando julgamento.",
    )


@register_card
def first_instance_card(ctx: CardContext) -> Card | None:
    return _queue_card(ctx, JUDGE_FIRST, 30)


@register_card
def second_instance_card(ctx: CardContext) -> Card | None:
    return _queue_card(ctx, JUDGE_SECOND, 31)


@register_card
def active_debt_card(ctx: CardContext) -> Card | None:
    if not user_can(ctx.user, ctx.municipality.pk, "dueprocess.sanction", EXPORT):
        return None
    rows = unpaid_final_fines(ctx.municipality, ctx.today)
    return Card(
        key="active_debt",
        title="Multas vencidas (dívida ativa)",
        order=55,
        items=(CardItem("Multas definitivas não pagas e vencidas", len(rows)),),
        link_url=reverse("dueprocess:active_debt", args=[ctx.municipality.ibge_code]),
        link_label="Exportar para inscrição",
        empty_message="Nenhuma multa vencida.",
    )
