"""The events that happen in other apps' services, told to the operator or driver they concern.

Each ``notify_*`` is registered (apps.notifications.apps) with the hook of the app where the event happens
(apps.enforcement.hooks, apps.dueprocess.events, apps.finance.hooks, apps.inspections.hooks,
apps.licensing.hooks), which its service calls at the end, inside its transaction (so a rolled-back change tells
nobody). Those apps sit below notifications in the layers and never import it. The key names the event, so
calling twice tells once. The article comes from the decision the engine stored with the event; the link is the
portal page where the person acts.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet
from django.urls import reverse

from apps.dueprocess.models import Sanction
from apps.dueprocess.procedure import instance_label
from apps.dueprocess.verdicts import verdict_label
from apps.dueprocess.windows import appeal_window
from apps.finance.choices import OriginType
from apps.finance.formatting import brl
from apps.licensing.models import Application
from apps.notifications.choices import NotificationKind as K
from apps.notifications.recipients import cited, to_holder
from apps.notifications.services import Message, notification_send

if TYPE_CHECKING:
    from apps.dueprocess.models import Judgment
    from apps.enforcement.models import InfractionCase, Notice
    from apps.finance.models import PaymentGuide
    from apps.inspections.models import Inspection
    from apps.registry.models import Operator


def _send(operator: Operator | None, message: Message) -> None:
    if operator is not None:
        notification_send(outgoing=to_holder(operator, message))


def _window_text(case: InfractionCase, as_of: dt.date) -> tuple[str, dt.date | None, str]:
    """The defence or appeal open now: its summary, its last day and the article of its deadline."""
    window = appeal_window(case, as_of)
    if window is None:
        return "", None, ""
    return window.summary, window.deadline, cited(window.decision)


def notify_notice(notice: Notice, as_of: dt.date) -> None:
    """A notice was sent (and, when it reaches the offender, the deadline to answer starts: told again)."""
    case = notice.case
    summary, deadline, article = _window_text(case, as_of)
    stage = "ciencia" if notice.ciencia_on else "sent"
    body = (
        f"{notice.get_purpose_display()} do auto de infração {case.number}, expedida em "
        f"{notice.sent_on:%d/%m/%Y} ({notice.get_channel_display().lower()})."
    )
    if notice.ciencia_on:
        body += f" Ciência em {notice.ciencia_on:%d/%m/%Y}."
    message = Message(
        kind=K.NOTICE_ISSUED,
        key=f"notice:{notice.pk}:{stage}",
        title=f"{notice.get_purpose_display()} — auto {case.number}",
        body=f"{body} {summary}".strip(),
        article=article or cited(notice.decision),
        link=reverse("portal:case", args=[case.pk]),
        due_on=deadline,
    )
    _send(case.operator, message)


def notify_judgment(judgment: Judgment, as_of: dt.date) -> None:
    appeal = judgment.appeal
    case = appeal.case
    label = instance_label(case.regime_id, appeal.instance)
    sanction = getattr(case, "sanction", None)
    summary, deadline, _ = _window_text(case, as_of)
    message = Message(
        kind=K.JUDGMENT,
        key=f"judgment:{judgment.pk}",
        title=f"{label} julgado — auto {case.number}",
        body=(
            f"{label} do auto de infração {case.number} julgado em {judgment.decided_on:%d/%m/%Y}: "
            f"{verdict_label(case.regime_id, judgment.verdict)}. {summary}"
        ).strip(),
        article=cited(sanction.decision if sanction else {}, appeal.judgment_deadline_decision),
        link=reverse("portal:case", args=[case.pk]),
        due_on=deadline,
    )
    _send(case.operator, message)


def guide_operator(guide: PaymentGuide) -> Operator | None:
    """The holder a guide charges: the applicant of a fee, the operator of a fine (as the portal lists them)."""
    origin: QuerySet[Any] = {
        OriginType.APPLICATION: Application.objects.all(),
        OriginType.FINE: Sanction.objects.all(),
    }[OriginType(guide.origin_type)]
    row = origin.select_related("operator").filter(pk=guide.origin_id).first()
    return row.operator if row is not None else None


def guide_message(guide: PaymentGuide, kind: str, key: str, title: str) -> Message:
    return Message(
        kind=kind,
        key=key,
        title=title,
        body=(
            f"Guia {guide.number} — {guide.description}: {brl(guide.amount_brl)}, vencimento em "
            f"{guide.due_on:%d/%m/%Y}. Pague pelo PIX da guia no portal."
        ),
        article=guide.legal_basis,
        link=reverse("portal:guide", args=[guide.pk]),
        due_on=guide.due_on,
    )


def notify_guide_issued(guide: PaymentGuide) -> None:
    message = guide_message(guide, K.GUIDE_ISSUED, f"guide:{guide.pk}:issued", f"Guia {guide.number} emitida")
    _send(guide_operator(guide), message)


def _vehicle_operator(inspection: Inspection) -> Operator | None:
    return inspection.vehicle.operator


def notify_inspection_scheduled(inspection: Inspection) -> None:
    deadline = f" Prazo legal: {inspection.deadline:%d/%m/%Y}." if inspection.deadline else ""
    message = Message(
        kind=K.INSPECTION_SCHEDULED,
        key=f"inspection:{inspection.pk}:scheduled",
        title=f"Vistoria do veículo {inspection.vehicle.plate_display} agendada",
        body=(
            f"{inspection.get_kind_display()} do veículo {inspection.vehicle.plate_display} agendada para "
            f"{inspection.scheduled_for:%d/%m/%Y}.{deadline} Leve o veículo e os documentos no dia marcado."
        ),
        article=inspection.deadline_basis or cited(inspection.decision.get("scheduling", {})),
        link=reverse("portal:vehicles"),
        due_on=inspection.scheduled_for,
    )
    _send(_vehicle_operator(inspection), message)


def notify_inspection_failed(inspection: Inspection) -> None:
    """Failed: the items not in order (each with its article) and the cure window the law opens, if any."""
    failed = inspection.failed_items
    labels = "; ".join(item.get("label", "") for item in failed)
    cites = [cite for item in failed for cite in item.get("cites", [])]
    cure = (
        f" Regularize e volte à vistoria até {inspection.cure_deadline:%d/%m/%Y}."
        if inspection.cure_deadline
        else ""
    )
    basis = inspection.decision.get("cure_basis", "")
    message = Message(
        kind=K.INSPECTION_FAILED,
        key=f"inspection:{inspection.pk}:failed",
        title=f"Vistoria do veículo {inspection.vehicle.plate_display} reprovada",
        body=f"Vistoria de {inspection.performed_on:%d/%m/%Y} reprovada. Itens irregulares: {labels}.{cure}",
        article="; ".join(dict.fromkeys([*cites, *([basis] if basis else [])])),
        link=reverse("portal:vehicles"),
        due_on=inspection.cure_deadline,
    )
    _send(_vehicle_operator(inspection), message)


def notify_cure_opened(application: Application) -> None:
    """Documents were requested: what to send and until when the law allows it."""
    if application.cure_deadline is None:
        until = "Atenda às pendências o quanto antes."
    else:
        until = (
            f"Prazo para sanar até {application.cure_deadline:%d/%m/%Y}; depois dele o pedido é arquivado."
        )
    message = Message(
        kind=K.CURE_OPENED,
        key=f"application:{application.pk}:cure:{application.cure_deadline}",
        title=f"Requerimento {application.number}: pendência de documentos",
        body=f"O requerimento {application.number} tem pendências a sanar. {until}",
        article=cited(application.last_decision),
        link=reverse("portal:application", args=[application.pk]),
        due_on=application.cure_deadline,
    )
    _send(application.operator, message)
