"""Fines through apps.finance: the guide (amount valued by the engine, due date from the notice of the
decision), the payment callback on the case timeline, and the unpaid final fines for dívida ativa."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from apps.accounts.actors import Actor
from apps.audit.services import audit_record
from apps.dueprocess import lawbridge
from apps.dueprocess.choices import SanctionState
from apps.dueprocess.models import Sanction
from apps.dueprocess.permissions import CHARGE
from apps.enforcement.choices import EventKind, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import case_event_add
from apps.finance.choices import GuideStatus, OriginType
from apps.finance.formatting import brl
from apps.finance.models import Payment, PaymentGuide
from apps.finance.services import guide_issue
from apps.finance.valuation import Charge, declared_unit
from apps.tenancy.querysets import user_can
from apps.web.refusals import refuse

SANCTION = "dueprocess.sanction"
DECISION_NOTICES = (
    NoticePurpose.FIRST_DECISION,
    NoticePurpose.SECOND_DECISION,
    NoticePurpose.FINAL_DECISION,
    NoticePurpose.PAYMENT,
)


def decision_notice_ciencia(sanction: Sanction) -> dt.date | None:
    """Ciência of the notice of the condemning decision (the payment term counts from it, Olímpia art. 33)."""
    notices = sanction.case.notices.filter(
        purpose__in=DECISION_NOTICES, ciencia_on__gte=sanction.condemned_on
    )
    first = notices.order_by("ciencia_on").first()
    return first.ciencia_on if first else None


def payer(case: InfractionCase) -> tuple[str, str]:
    if case.operator is not None:
        holder = case.operator.person or case.operator.company
        document = getattr(holder, "cpf", "") or getattr(holder, "cnpj", "")
        return case.operator.holder_name, document
    return case.offender_name or case.driver_name, case.offender_document


@transaction.atomic
def fine_issue(*, sanction: Sanction, actor: Actor, as_of: dt.date) -> PaymentGuide:
    """Issue the fine's guide once the offender knows the decision; due date from the engine where the law
    sets one (Olímpia: 30 dias corridos, art. 33), else the municipality's usual term."""
    row = _locked_sanction(sanction)
    case = row.case
    if not user_can(actor, case.municipality.pk, SANCTION, CHARGE):
        raise refuse("guide", f"Guia da multa: você não pode emitir guias de multa em {case.municipality}.")
    ciencia = _check_chargeable(row)
    due = lawbridge.payment_deadline(case, ciencia, as_of)
    name, document = payer(case)
    guide = guide_issue(
        actor=actor,
        municipality=case.municipality,
        regime_id=case.regime_id,
        charge=_fine_charge(row),
        payer_name=name,
        payer_document=document,
        origin_type=OriginType.FINE,
        origin_id=row.pk,
        fact_date=lawbridge.infraction_date(case),
        as_of=as_of,
        due_on=due.end if due else None,
    )
    row.guide = guide
    row.save(update_fields=["guide", "updated_at"])
    _note_fine_issued(case, guide, actor, as_of)
    audit_record(
        actor=actor,
        municipality=case.municipality,
        action="sanction.fine_issue",
        obj=row,
        after={**row.audit_snapshot(), "guide": guide.number},
    )
    return guide


def _locked_sanction(sanction: Sanction) -> Sanction:
    row: Sanction = (
        Sanction.objects.select_for_update(of=("self",))
        .select_related("case__municipality", "guide")
        .get(pk=sanction.pk)
    )
    return row


def _fine_charge(sanction: Sanction) -> Charge:
    assert sanction.fine_quantity is not None  # _check_chargeable refused a sanction without a fine
    case = sanction.case
    return Charge(
        quantity=sanction.fine_quantity,
        unit=sanction.fine_unit,
        cite=case.infraction_cite,
        description=f"Multa — auto de infração {case.number}",
        auto_date=case.drawn_on,
    )


def _note_fine_issued(case: InfractionCase, guide: PaymentGuide, actor: Actor, as_of: dt.date) -> None:
    case_event_add(
        case=case,
        kind=EventKind.FINE_ISSUED,
        actor=actor,
        on=as_of,
        note=f"Guia {guide.number}: {brl(guide.amount_brl)}, vence em {guide.due_on:%d/%m/%Y}",
        data={"guide_id": guide.pk},
    )


def _check_chargeable(sanction: Sanction) -> dt.date:
    if sanction.state == SanctionState.ANNULLED:
        raise refuse("guide", "Guia da multa: a penalidade foi anulada (recurso procedente).")
    if not sanction.has_fine or not sanction.fine_unit:
        raise refuse("guide", "Guia da multa: esta penalidade não tem multa municipal a cobrar.")
    try:
        declared_unit(sanction.case.regime_id, sanction.fine_unit)
    except ValidationError as exc:
        # The unit comes from the regime's decision: one its units.yaml no longer declares cannot be valued.
        raise refuse("guide", f"Guia da multa: {' '.join(exc.messages)}") from None
    if sanction.guide is not None and sanction.guide.status != GuideStatus.CANCELLED:
        raise refuse("guide", f"Guia da multa: já emitida (guia {sanction.guide.number}).")
    ciencia = decision_notice_ciencia(sanction)
    if ciencia is None:
        raise refuse(
            "guide",
            "Guia da multa: notifique antes o autuado da decisão que manteve a penalidade; o "
            "prazo de pagamento conta da ciência dessa notificação.",
        )
    return ciencia


def fine_paid(*, guide: PaymentGuide, payment: Payment, actor: Actor, as_of: dt.date) -> None:
    """finance's payment callback for origin 'fine': the payment shows on the case timeline."""
    sanction = Sanction.objects.select_related("case").filter(pk=guide.origin_id, guide=guide).first()
    if sanction is None:
        return
    case_event_add(
        case=sanction.case,
        kind=EventKind.FINE_PAID,
        actor=actor,
        on=payment.paid_on,
        note=f"Guia {guide.number} paga: {brl(payment.amount_brl)}",
        data={"payment_id": payment.pk},
    )
