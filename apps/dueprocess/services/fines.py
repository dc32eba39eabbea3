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
from apps.finance.models import Payment, PaymentGuide, WaitingGuide
from apps.finance.selectors import waiting_guide
from apps.finance.services import fine_valuation_for_guide, guide_issue, guide_wait, guide_wait_withdraw
from apps.finance.valuation import Charge, ValueNotYetEntered, declared_unit
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
def fine_issue(*, sanction: Sanction, actor: Actor, as_of: dt.date) -> PaymentGuide | WaitingGuide:
    """Issue the fine's guide once the offender knows the decision, charging the fine's one valuation (made at
    finality, or now when the law values it on the guide's issue); due date from the engine where the law sets
    one (Olímpia: 30 dias corridos, art. 33), else the municipality's usual term, never already past.

    When the value the law needs is not entered yet (next year's UFESP on 2 January), nothing fails: the guide
    waits in finance's queue and is issued by itself as soon as the value is entered (fine_issue_waiting)."""
    row = _locked_sanction(sanction)
    case = row.case
    if not user_can(actor, case.municipality.pk, SANCTION, CHARGE):
        raise refuse("guide", f"Guia da multa: você não pode emitir guias de multa em {case.municipality}.")
    return _issue(row, actor, as_of)


def fine_issue_waiting(*, waiting: WaitingGuide, actor: Actor, as_of: dt.date) -> PaymentGuide | None:
    """finance's queue issuer for origin 'fine': the value may now be entered; issue the guide as staff would
    have (the request was authorized when it was queued). An annulled fine leaves the queue instead."""
    sanction = Sanction.objects.filter(pk=waiting.origin_id).first()
    if sanction is None or sanction.state == SanctionState.ANNULLED:
        guide_wait_withdraw(
            actor=actor,
            origin_type=OriginType.FINE,
            origin_id=waiting.origin_id,
            reason="Penalidade anulada",
            as_of=as_of,
        )
        return None
    issued = _issue(_locked_sanction(sanction), actor, as_of)
    return issued if isinstance(issued, PaymentGuide) else None


def _issue(row: Sanction, actor: Actor, as_of: dt.date) -> PaymentGuide | WaitingGuide:
    case = row.case
    ciencia = _check_chargeable(row)
    charge = fine_charge(row)
    name, document = payer(case)
    try:
        valuation = fine_valuation_for_guide(
            actor=actor,
            municipality=case.municipality,
            regime_id=case.regime_id,
            origin_id=row.pk,
            charge=charge,
            fact_date=lawbridge.infraction_date(case),
            as_of=as_of,
        )
    except ValueNotYetEntered as missing:
        return _wait(row, charge, name, missing, actor, as_of)
    guide = guide_issue(
        actor=actor,
        municipality=case.municipality,
        regime_id=case.regime_id,
        charge=charge,
        payer_name=name,
        payer_document=document,
        origin_type=OriginType.FINE,
        origin_id=row.pk,
        fact_date=lawbridge.infraction_date(case),
        as_of=as_of,
        due_on=_due_on(case, ciencia, as_of),
        fine_valuation=valuation,
    )
    row.guide, row.fine_brl = guide, valuation.amount_brl
    row.save(update_fields=["guide", "fine_brl", "updated_at"])
    _note_fine_issued(case, guide, actor, as_of)
    audit_record(
        actor=actor,
        municipality=case.municipality,
        action="sanction.fine_issue",
        obj=row,
        after={**row.audit_snapshot(), "guide": guide.number},
    )
    return guide


def _due_on(case: InfractionCase, ciencia: dt.date, as_of: dt.date) -> dt.date | None:
    """The law's payment term counted from the ciência of the decision; a guide issued after that term ran out
    (it waited for a value the administration had not entered) gets the same term counted from its issue, so
    it is never overdue the day it is handed over. None: the municipality's usual term."""
    due = lawbridge.payment_deadline(case, ciencia, as_of)
    if due is None or due.end >= as_of:
        return due.end if due else None
    again = lawbridge.payment_deadline(case, as_of, as_of)
    return again.end if again else None


def _wait(
    row: Sanction, charge: Charge, name: str, missing: ValueNotYetEntered, actor: Actor, as_of: dt.date
) -> WaitingGuide:
    case = row.case
    already = waiting_guide(origin_type=OriginType.FINE, origin_id=row.pk) is not None
    waiting = guide_wait(
        actor=actor,
        municipality=case.municipality,
        regime_id=case.regime_id,
        origin_type=OriginType.FINE,
        origin_id=row.pk,
        charge=charge,
        payer_name=name,
        missing=missing,
        as_of=as_of,
    )
    if not already:
        case_event_add(
            case=case,
            kind=EventKind.NOTE,
            actor=actor,
            on=as_of,
            note=f"Guia da multa aguardando o {waiting.missing_value}: será emitida automaticamente quando ele "
            "for cadastrado",
            data={"waiting_guide_id": waiting.pk},
        )
    return waiting


def _locked_sanction(sanction: Sanction) -> Sanction:
    row: Sanction = (
        Sanction.objects.select_for_update(of=("self",))
        .select_related("case__municipality", "guide")
        .get(pk=sanction.pk)
    )
    return row


def fine_charge(sanction: Sanction) -> Charge:
    """What the fine charges, with the dates the law may value it on: the same the sanction was decided on
    (the auto's, the final decision's), so the valuation and the sanction read one valuation date."""
    assert sanction.fine_quantity is not None  # callers refuse a sanction without a fine
    case = sanction.case
    return Charge(
        quantity=sanction.fine_quantity,
        unit=sanction.fine_unit,
        cite=case.infraction_cite,
        description=f"Multa — auto de infração {case.number}",
        auto_date=case.drawn_on,
        decided_final_on=sanction.decided_final_on,
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
