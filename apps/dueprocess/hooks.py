"""What due process registers with other apps (imported from AppConfig.ready): the case timeline's deadlines,
the operator history the printed auto uses, and the payment callback for fine guides."""

from __future__ import annotations

import datetime as dt

from apps.dueprocess import lawbridge
from apps.dueprocess.choices import Instance
from apps.dueprocess.lawbridge import operator_history
from apps.dueprocess.models import Appeal, Effect, Sanction
from apps.dueprocess.procedure import instance_label
from apps.dueprocess.services import effects
from apps.dueprocess.services.finality import lapse_deadline
from apps.dueprocess.services.fines import fine_issue_waiting, fine_paid
from apps.dueprocess.services.nullity import autuacao_limit
from apps.enforcement.choices import CaseState, NoticePurpose
from apps.enforcement.hooks import TimelineItem, register_history_provider, register_timeline_source
from apps.enforcement.models import InfractionCase
from apps.enforcement.regime_rules import cite_pt
from apps.finance.choices import OriginType
from apps.finance.origins import register_payment_handler, register_waiting_issuer
from apps.tenancy.regimes import instrument_of


def _appeal_items(appeal: Appeal) -> list[TimelineItem]:
    label = instance_label(appeal.case.regime_id, appeal.instance)
    judgment = getattr(appeal, "judgment", None)
    items = []
    if appeal.instance != "first" and appeal.deadline:
        # The first-instance deadline is enforcement's own mark; the later ones are drawn here.
        items.append(
            TimelineItem(on=appeal.deadline, label=f"Prazo: {label}", deadline=True, done_on=appeal.filed_on)
        )
    if appeal.judgment_deadline:
        items.append(
            TimelineItem(
                on=appeal.judgment_deadline,
                label=f"Prazo de julgamento: {label}",
                deadline=True,
                done_on=judgment.decided_on if judgment else None,
            )
        )
    return items


def _effect_items(case: InfractionCase) -> list[TimelineItem]:
    """The last day of each suspension the case imposed, as applied (queued after another, carried over)."""
    rows = Effect.objects.filter(case=case, state__in=effects.RUNNING, mechanism__in=effects.SUSPENDING)
    return [
        TimelineItem(
            on=row.ends_on,
            label=f"Fim: {row.label.lower()}"
            + (f" ({instrument_of(row.permit.regime_id).the(row.permit.number)})" if row.permit else ""),
            detail=f"desde {row.starts_on:%d/%m/%Y}" if row.starts_on else "",
        )
        for row in rows.select_related("permit")
        if row.ends_on is not None
    ]


def _sanction_items(sanction: Sanction) -> list[TimelineItem]:
    items = []
    if sanction.ban_until:
        items.append(TimelineItem(on=sanction.ban_until, label="Fim do impedimento de atuar"))
    guide = sanction.guide
    if guide is not None:
        paid = getattr(guide, "payment", None)
        items.append(
            TimelineItem(
                on=guide.due_on,
                label=f"Vencimento da multa (guia {guide.number})",
                deadline=True,
                done_on=paid.paid_on if paid else None,
            )
        )
    return items


def _pending_second_instance(case: InfractionCase, as_of: dt.date) -> list[TimelineItem]:
    """After the first decision and before any appeal against it, the second-instance deadline runs."""
    if case.state != CaseState.JUDGED_FIRST:
        return []
    deadline = lapse_deadline(case, as_of)
    label = f"Prazo: {instance_label(case.regime_id, Instance.SECOND)}"
    return [TimelineItem(on=deadline, label=label, deadline=True)] if deadline else []


def _procedure_items(case: InfractionCase) -> list[TimelineItem]:
    """The limits the regime's procedure.yaml sets on this case: the notice of autuação's limit whose loss
    voids the case, and the ceiling of the infraction's own procedure — each with its article."""
    items = []
    limit = autuacao_limit(case)
    if limit is not None:
        rule, last_day = limit
        sent = case.notices.filter(purpose=NoticePurpose.INFRACTION).order_by("sent_on").first()
        items.append(
            TimelineItem(
                on=last_day,
                label=f"Limite para notificar a autuação ({cite_pt(case.regime_id, rule.cite, last_day)})",
                deadline=True,
                done_on=sent.sent_on if sent else None,
                detail=rule.reason,
            )
        )
    special = lawbridge.special_procedure(case)
    ceiling = lawbridge.proceeding_ceiling(case)
    if special is not None and ceiling is not None and special.ceiling is not None:
        end = case.drawn_on + dt.timedelta(days=special.ceiling.days)
        items.append(
            TimelineItem(
                on=end,
                label=f"Conclusão do processo: {special.label}",
                deadline=True,
                done_on=Sanction.objects.filter(case=case).values_list("decided_final_on", flat=True).first(),
                detail=ceiling,
            )
        )
    return items


def due_process_timeline(case: InfractionCase, as_of: dt.date) -> list[TimelineItem]:
    items: list[TimelineItem] = (
        _pending_second_instance(case, as_of) + _effect_items(case) + _procedure_items(case)
    )
    for appeal in Appeal.objects.filter(case=case).select_related("judgment", "case"):
        items += _appeal_items(appeal)
    sanction = Sanction.objects.filter(case=case).select_related("guide__payment").first()
    if sanction is not None:
        items += _sanction_items(sanction)
    return items


register_timeline_source(due_process_timeline)
register_history_provider(operator_history)
register_payment_handler(OriginType.FINE, fine_paid)
register_waiting_issuer(OriginType.FINE, fine_issue_waiting)
