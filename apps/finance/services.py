"""Writes for finance. Each service is one transaction that writes its own audit event; a refusal is a
ValidationError whose message names the field (in Portuguese) and stores nothing."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Sum

from apps.accounts.actors import Actor, actor_user
from apps.accounts.stepup import sensitive_service
from apps.audit.services import audit_record, audited_change
from apps.finance import pix
from apps.finance.choices import (
    FeeKind,
    GuideStatus,
    OriginType,
    PaymentMethod,
    RefundStatus,
    ValuationMoment,
    WaitingState,
)
from apps.finance.formatting import brl
from apps.finance.hooks import guide_changed, guide_issued
from apps.finance.models import (
    FeeSchedule,
    FinanceSettings,
    FineValuation,
    Payment,
    PaymentGuide,
    Refund,
    WaitingGuide,
)
from apps.finance.origins import payment_handler, waiting_issuer
from apps.finance.selectors import fee_in_force, fine_valuation_current, guide_for_update
from apps.finance.valuation import (
    Charge,
    Valuation,
    ValueNotYetEntered,
    declared_unit,
    legal_basis,
    valuate,
    valuation_reason,
)
from apps.lawconfig.config import RegimeChoiceError, calendar_for, regime_for
from apps.registry.identifiers import validate_cnpj, validate_cpf
from apps.tenancy.models import Municipality
from apps.tenancy.numbering import format_number, number_take
from apps.web.refusals import refuse

# --- settings and fee schedule ------------------------------------------------------------------------


@transaction.atomic
def finance_settings_save(
    *,
    actor: Actor,
    municipality: Municipality,
    pix_key: str,
    receiver_name: str,
    receiver_city: str,
    guide_due_days: int,
) -> FinanceSettings:
    """Create or change where the municipality receives PIX; names are stored as the BR Code will carry them."""
    key = pix_key.strip()
    try:
        pix.key_kind(key)
        name, city = pix.receiver_name_field(receiver_name), pix.city_field(receiver_city)
    except pix.PixError as exc:
        raise refuse(
            {"key": "pix_key", "receiver_name": "receiver_name", "city": "receiver_city"}[exc.field],
            exc.message,
        ) from exc
    if not 1 <= guide_due_days <= 90:
        raise refuse("guide_due_days", "Vencimento da guia: entre 1 e 90 dias corridos.")
    current = FinanceSettings.objects.select_for_update().filter(municipality=municipality).first()
    before = current.audit_snapshot() if current else None
    settings = current or FinanceSettings(municipality=municipality)
    settings.pix_key, settings.receiver_name, settings.receiver_city = key, name, city
    settings.guide_due_days = guide_due_days
    settings.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="finance_settings.save",
        obj=settings,
        before=before,
        after=settings.audit_snapshot(),
    )
    return settings


@transaction.atomic
def fee_schedule_create(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str | None,
    fee_kind: str,
    quantity: Decimal,
    unit: str,
    cite: str,
    valid_from: dt.date,
) -> FeeSchedule:
    """A fee from ``valid_from`` on; the dispositivo must exist in the regime's law on that date."""
    regime = _regime(municipality, regime_id)
    _check_fee(fee_kind, quantity, unit, regime)
    legal_basis(municipality, regime, cite, valid_from)
    if FeeSchedule.objects.filter(
        municipality=municipality, regime_id=regime, fee_kind=fee_kind, valid_from=valid_from
    ).exists():
        raise refuse("valid_from", "Vigência: já existe um valor desta taxa a partir desta data.")
    fee = FeeSchedule.objects.create(
        municipality=municipality,
        regime_id=regime,
        fee_kind=fee_kind,
        quantity=quantity,
        unit=unit,
        cite=cite,
        valid_from=valid_from,
    )
    audit_record(
        actor=actor,
        municipality=municipality,
        action="fee_schedule.create",
        obj=fee,
        after=fee.audit_snapshot(),
    )
    return fee


def _check_fee(fee_kind: str, quantity: Decimal, unit: str, regime_id: str) -> None:
    if fee_kind not in FeeKind.values:
        raise refuse("fee_kind", f"Taxa: tipo desconhecido {fee_kind!r}.")
    declared_unit(regime_id, unit)  # "brl" or a unit of the regime's units.yaml; refuses any other
    if quantity <= 0:
        raise refuse("quantity", "Quantidade: deve ser maior que zero.")


def _regime(municipality: Municipality, regime_id: str | None) -> str:
    try:
        return regime_for(municipality, regime_id)
    except RegimeChoiceError as exc:
        raise refuse("regime_id", f"Regime: {exc.message_pt}") from exc


# --- guides ---------------------------------------------------------------------------------------------


def fee_guide_issue(
    *,
    actor: Actor,
    municipality: Municipality,
    fee_kind: str,
    payer_name: str,
    payer_document: str,
    origin_type: str,
    origin_id: int,
    fact_date: dt.date,
    as_of: dt.date,
    regime_id: str | None = None,
) -> PaymentGuide:
    """A guide for the fee in force on ``fact_date`` (the fee schedule row), valued by the engine."""
    regime = _regime(municipality, regime_id)
    return guide_issue(
        actor=actor,
        municipality=municipality,
        regime_id=regime,
        charge=_fee_charge(municipality, regime, fee_kind, fact_date),
        payer_name=payer_name,
        payer_document=payer_document,
        origin_type=origin_type,
        origin_id=origin_id,
        fact_date=fact_date,
        as_of=as_of,
    )


def _fee_charge(municipality: Municipality, regime: str, fee_kind: str, fact_date: dt.date) -> Charge:
    fee = fee_in_force(municipality=municipality, regime_id=regime, fee_kind=fee_kind, on=fact_date)
    return Charge(
        quantity=fee.quantity,
        unit=fee.unit,
        cite=fee.cite,
        description=fee.get_fee_kind_display(),
        fee_kind=fee.fee_kind,
    )


@transaction.atomic
def fee_guide_issue_or_wait(
    *,
    actor: Actor,
    municipality: Municipality,
    fee_kind: str,
    payer_name: str,
    payer_document: str,
    origin_type: str,
    origin_id: int,
    fact_date: dt.date,
    as_of: dt.date,
    regime_id: str | None = None,
) -> PaymentGuide | WaitingGuide:
    """fee_guide_issue for an act that must not be refused for want of a value: when the fee is counted in a
    unit whose value is not entered yet (next year's UFM or UFESP), the guide waits in the same queue as a
    fine's (guide_wait, audited) and the origin's issuer (origins.register_waiting_issuer) issues it as soon as
    the value is entered. Any other refusal (no fee configured, no PIX key) still refuses."""
    regime = _regime(municipality, regime_id)
    try:
        with transaction.atomic():
            return fee_guide_issue(
                actor=actor,
                municipality=municipality,
                regime_id=regime,
                fee_kind=fee_kind,
                payer_name=payer_name,
                payer_document=payer_document,
                origin_type=origin_type,
                origin_id=origin_id,
                fact_date=fact_date,
                as_of=as_of,
            )
    except ValueNotYetEntered as missing:
        return guide_wait(
            actor=actor,
            municipality=municipality,
            regime_id=regime,
            origin_type=origin_type,
            origin_id=origin_id,
            charge=_fee_charge(municipality, regime, fee_kind, fact_date),
            payer_name=payer_name,
            missing=missing,
            as_of=as_of,
        )


@transaction.atomic
def guide_issue(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str | None,
    charge: Charge,
    payer_name: str,
    payer_document: str,
    origin_type: str,
    origin_id: int,
    fact_date: dt.date,
    as_of: dt.date,
    due_on: dt.date | None = None,
    fine_valuation: FineValuation | None = None,
) -> PaymentGuide:
    """Issue a numbered guide with its PIX BR Code. ``fact_date`` is the chargeable event (the request, the
    infraction); ``as_of`` the issue date; ``due_on`` defaults to the municipality's term, on a business day.
    A fine's guide charges its stored valuation (``fine_valuation``: fine_valuation_for_guide), never a new
    reading of the law. A guide of the origin that was waiting for a value leaves the queue with it."""
    regime = _regime(municipality, regime_id)
    settings = _finance_settings(municipality)
    payer = _payer(payer_name, payer_document)
    _check_origin(municipality, origin_type, origin_id, charge.fee_kind)
    valuation = (
        _stored(fine_valuation)
        if fine_valuation is not None
        else _valuation(municipality, regime, charge, fact_date, as_of)
    )
    guide = _guide_store(
        actor, municipality, regime, settings, payer, origin_type, origin_id, charge, valuation, as_of, due_on
    )
    if fine_valuation is not None:
        guide.fine_valuation = fine_valuation
        guide.save(update_fields=["fine_valuation"])
    audit_record(
        actor=actor,
        municipality=municipality,
        action="payment_guide.issue",
        obj=guide,
        after=guide.audit_snapshot(),
    )
    _leave_queue(actor, guide, as_of)
    guide_issued(guide)
    return guide


def _stored(row: FineValuation) -> Valuation:
    """The stored valuation as the guide charges it (amount, unit value, date, the engine's decision)."""
    return Valuation(
        row.amount_brl,
        row.unit_value,
        row.valuation_date,
        row.legal_basis,
        row.decision,
    )


def _valuation(
    municipality: Municipality, regime: str, charge: Charge, fact_date: dt.date, as_of: dt.date
) -> Valuation:
    if fact_date > as_of:
        raise refuse("fact_date", "Data do fato gerador: não pode ser posterior à data de emissão.")
    return valuate(
        municipality=municipality, regime_id=regime, charge=charge, fact_date=fact_date, issue_date=as_of
    )


def _guide_store(
    actor: Actor,
    municipality: Municipality,
    regime: str,
    settings: FinanceSettings,
    payer: tuple[str, str],
    origin_type: str,
    origin_id: int,
    charge: Charge,
    valuation: Valuation,
    as_of: dt.date,
    due_on: dt.date | None,
) -> PaymentGuide:
    """The guide, numbered in the municipality's yearly sequence, due on ``due_on`` or after the municipality's
    term, saved with its PIX code."""
    year = as_of.year
    sequence = number_take(kind="payment_guide", municipality=municipality, year=year)
    guide = PaymentGuide(
        municipality=municipality,
        regime_id=regime,
        number=format_number(sequence, year, digits=6),
        year=year,
        sequence=sequence,
        payer_name=payer[0],
        payer_document=payer[1],
        origin_type=origin_type,
        origin_id=origin_id,
        **_charged(charge, valuation),
        issued_on=as_of,
        due_on=due_on or _due_date(municipality, regime, settings, as_of),
        issued_by=actor_user(actor),
    )
    guide.pix_payload = _pix_payload(settings, guide)
    guide.save()
    return guide


def _charged(charge: Charge, valuation: Valuation) -> dict[str, Any]:
    """What the guide charges and its value in reais, as the guide stores them."""
    return {
        "description": charge.description[:200],
        "fee_kind": charge.fee_kind,
        "quantity": charge.quantity,
        "unit": charge.unit,
        "legal_basis": valuation.legal_basis[:255],
        "amount_brl": valuation.amount_brl,
        "unit_value_used": valuation.unit_value,
        "valuation_date": valuation.valuation_date,
        "conversion": valuation.decision,
    }


def _finance_settings(municipality: Municipality) -> FinanceSettings:
    settings = FinanceSettings.objects.filter(municipality=municipality).first()
    if settings is None:
        raise refuse(
            "pix_key",
            f"Recebimento PIX: {municipality.name} ainda não configurou a chave PIX, o nome e a "
            "cidade do recebedor; um administrador deve configurá-los antes da emissão de guias.",
        )
    return settings


def _payer(name: str, document: str) -> tuple[str, str]:
    clean_name = " ".join(name.split())
    if not clean_name:
        raise refuse("payer_name", "Contribuinte: informe o nome.")
    raw = "".join(ch for ch in document if ch.isalnum()).upper()
    validate = validate_cpf if len(raw) == 11 else validate_cnpj
    try:
        return clean_name, validate(raw)
    except ValidationError as exc:
        raise refuse("payer_document", f"CPF/CNPJ do contribuinte: {exc.messages[0]}") from exc


def _check_origin(municipality: Municipality, origin_type: str, origin_id: int, fee_kind: str) -> None:
    if origin_type not in OriginType.values:
        raise refuse("origin_type", f"Origem da guia: tipo desconhecido {origin_type!r}.")
    duplicate = PaymentGuide.objects.filter(
        municipality=municipality,
        origin_type=origin_type,
        origin_id=origin_id,
        fee_kind=fee_kind,
        status__in=[GuideStatus.OPEN, GuideStatus.PAID],
    ).first()
    if duplicate is not None:
        raise refuse(
            "origin_id",
            f"Já existe a guia {duplicate.number} ({duplicate.get_status_display().lower()}) "
            "para esta cobrança; cancele-a antes de emitir outra.",
        )


def _due_date(
    municipality: Municipality, regime_id: str, settings: FinanceSettings, issued_on: dt.date
) -> dt.date:
    due = issued_on + dt.timedelta(days=settings.guide_due_days)
    return calendar_for(municipality, regime_id).business_day_on_or_after(due)


def _pix_payload(settings: FinanceSettings, guide: PaymentGuide) -> str:
    charge = pix.PixCharge(
        key=settings.pix_key,
        receiver_name=settings.receiver_name,
        city=settings.receiver_city,
        amount=guide.amount_brl,
        txid=f"{guide.municipality.ibge_code}{guide.year}{guide.sequence:06d}",
        single_use=True,
    )
    try:
        return pix.payload(charge)
    except pix.PixError as exc:
        raise refuse("pix_key", f"Configuração PIX do município: {exc.message}") from exc


@transaction.atomic
def guide_cancel(*, actor: Actor, guide: PaymentGuide, reason: str, as_of: dt.date) -> PaymentGuide:
    """Cancel an open guide; a paid one is refunded instead (refund_create), never cancelled."""
    guide = guide_for_update(guide.pk)
    if guide.status != GuideStatus.OPEN:
        raise refuse(
            "status",
            f"Guia {guide.number}: só uma guia em aberto pode ser cancelada "
            f"(situação atual: {guide.get_status_display().lower()}).",
        )
    if not reason.strip():
        raise refuse("reason", "Motivo do cancelamento: campo obrigatório.")
    reason = reason.strip()[:255]
    with audited_change(guide, actor=actor, action="payment_guide.cancel", extra={"reason": reason}):
        guide.status, guide.cancelled_on, guide.cancel_reason = GuideStatus.CANCELLED, as_of, reason
        guide.save(update_fields=["status", "cancelled_on", "cancel_reason"])
    guide_changed(guide)
    return guide


# --- the one valuation of a fine ---------------------------------------------------------------------------


@transaction.atomic
def fine_valuation_make(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    origin_id: int,
    charge: Charge,
    fact_date: dt.date,
    as_of: dt.date,
) -> FineValuation | None:
    """Value a fine when its decision becomes final, on the date the law or the municipality's interpretation
    sets (the regime's ``fine_amount``, asked with the same dates the sanction was decided on), and store it
    with its unit value, date and reason. None when the value it needs is not entered yet: the fine is then
    valued when its guide is issued (and the guide waits in the queue until the value is entered)."""
    try:
        return _fine_value(
            actor, municipality, regime_id, origin_id, charge, fact_date, as_of, ValuationMoment.FINALITY
        )
    except ValueNotYetEntered:
        return None


@transaction.atomic
def fine_valuation_for_guide(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    origin_id: int,
    charge: Charge,
    fact_date: dt.date,
    as_of: dt.date,
) -> FineValuation:
    """The valuation a fine's guide issued on ``as_of`` charges: the stored one while the law's reading still
    values the fine on the same date; otherwise (a reading that values it on the guide's issue, a fine that could
    not be valued at finality) a new valuation, recorded with why. ValueNotYetEntered when the value it needs is
    not entered yet."""
    return _fine_value(
        actor, municipality, regime_id, origin_id, charge, fact_date, as_of, ValuationMoment.GUIDE_ISSUE
    )


def _fine_value(
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    origin_id: int,
    charge: Charge,
    fact_date: dt.date,
    as_of: dt.date,
    moment: str,
) -> FineValuation:
    """The one place a fine is valued: the law's reading now; the stored valuation kept when it gives the same
    valuation date (the amount never moves because the same date's value was looked up again), a new one
    recorded with why otherwise."""
    current = fine_valuation_current(origin_type=OriginType.FINE, origin_id=origin_id)
    valuation = valuate(
        municipality=municipality, regime_id=regime_id, charge=charge, fact_date=fact_date, issue_date=as_of
    )
    if current is not None and _same_valuation(current, charge, valuation):
        return current
    why = _revaluation_reason(current, valuation, moment, as_of)
    return _valuation_store(
        actor, municipality, regime_id, origin_id, charge, valuation, moment, as_of, current, why
    )


def _same_valuation(row: FineValuation, charge: Charge, valuation: Valuation) -> bool:
    return (row.quantity, row.unit, row.valuation_date) == (
        charge.quantity,
        charge.unit,
        valuation.valuation_date,
    )


def _revaluation_reason(
    current: FineValuation | None, valuation: Valuation, moment: str, as_of: dt.date
) -> str:
    """Why a fine valued before is valued again; the dates of the fine (infraction, auto, final decision) never
    change, so a new valuation date comes from the moment of the new valuation (the guide's issue, the day the
    decision became final) that the law's reading values the fine on."""
    if current is None:
        return ""
    when = ValuationMoment(moment).label.lower()
    if current.valuation_date != valuation.valuation_date:
        before = f"{current.valuation_date:%d/%m/%Y}" if current.valuation_date else "sem data"
        after = f"{valuation.valuation_date:%d/%m/%Y}" if valuation.valuation_date else "sem data"
        return (
            f"Nova valoração {when} ({as_of:%d/%m/%Y}): pela leitura adotada, a multa se valora em {after}, "
            f"não mais em {before}."
        )
    return f"Nova valoração {when} ({as_of:%d/%m/%Y}): a quantidade ou a unidade da multa mudou."


def _valuation_store(
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    origin_id: int,
    charge: Charge,
    valuation: Valuation,
    moment: str,
    as_of: dt.date,
    replaces: FineValuation | None,
    why: str,
) -> FineValuation:
    row = FineValuation.objects.create(
        municipality=municipality,
        regime_id=regime_id,
        origin_type=OriginType.FINE,
        origin_id=origin_id,
        quantity=charge.quantity,
        unit=charge.unit,
        amount_brl=valuation.amount_brl,
        unit_value=valuation.unit_value,
        valuation_date=valuation.valuation_date,
        moment=moment,
        legal_basis=valuation.legal_basis[:255],
        reason=valuation_reason(valuation.decision, valuation.legal_basis),
        decision=valuation.decision,
        replaces=replaces,
        revaluation_reason=why[:500],
        valued_on=as_of,
        created_by=actor_user(actor),
    )
    audit_record(
        actor=actor,
        municipality=municipality,
        action="fine_valuation.revalue" if replaces is not None else "fine_valuation.make",
        obj=row,
        after=row.audit_snapshot(),
    )
    return row


# --- guides waiting for a value ------------------------------------------------------------------------------


@transaction.atomic
def guide_wait(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    origin_type: str,
    origin_id: int,
    charge: Charge,
    payer_name: str,
    missing: ValueNotYetEntered,
    as_of: dt.date,
) -> WaitingGuide:
    """Put the guide in the queue of guides waiting for a value (or note a new try of one already there): it is
    issued by itself as soon as the value is entered (waiting_guides_issue)."""
    row = (
        WaitingGuide.objects.select_for_update()
        .filter(origin_type=origin_type, origin_id=origin_id, state=WaitingState.WAITING)
        .first()
    )
    before = row.audit_snapshot() if row is not None else None
    row = row or WaitingGuide(
        municipality=municipality,
        regime_id=regime_id,
        origin_type=origin_type,
        origin_id=origin_id,
        requested_on=as_of,
        requested_by=actor_user(actor),
    )
    row.description, row.payer_name = charge.description[:200], payer_name[:200]
    row.quantity, row.unit = charge.quantity, charge.unit
    row.missing_value, row.missing_on, row.where_to_enter = (
        missing.missing_value[:200],
        missing.missing_on,
        missing.where[:300],
    )
    row.last_try_on = as_of
    row.save()
    if before is None or before != row.audit_snapshot():
        audit_record(
            actor=actor,
            municipality=municipality,
            action="waiting_guide.wait",
            obj=row,
            before=before,
            after=row.audit_snapshot(),
        )
    return row


def _leave_queue(actor: Actor, guide: PaymentGuide, as_of: dt.date) -> None:
    """A guide was issued for an origin that waited in the queue: the waiting entry is closed with it."""
    row = (
        WaitingGuide.objects.select_for_update()
        .filter(origin_type=guide.origin_type, origin_id=guide.origin_id, state=WaitingState.WAITING)
        .first()
    )
    if row is None:
        return
    with audited_change(row, actor=actor, action="waiting_guide.issued", municipality=guide.municipality):
        row.state, row.guide, row.issued_on = WaitingState.ISSUED, guide, as_of
        row.save(update_fields=["state", "guide", "issued_on"])


def waiting_guides_issue(*, actor: Actor, as_of: dt.date, municipality: Municipality | None = None) -> int:
    """Try again every guide waiting for a value (of ``municipality``, or of all): each origin's issuer
    (origins.register_waiting_issuer) issues it when the value is now entered; each try is its own transaction,
    so one that still waits never holds back the others. Returns how many guides were issued."""
    rows = WaitingGuide.objects.filter(state=WaitingState.WAITING)
    if municipality is not None:
        rows = rows.filter(municipality=municipality)
    issued = 0
    for pk in rows.order_by("requested_on", "id").values_list("pk", flat=True):
        issued += _waiting_issue_one(pk, actor, as_of)
    return issued


@transaction.atomic
def _waiting_issue_one(pk: int, actor: Actor, as_of: dt.date) -> int:
    row = WaitingGuide.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
    if row is None or row.state != WaitingState.WAITING:
        return 0  # another worker holds it, or issued it already
    issuer = waiting_issuer(row.origin_type)
    if issuer is None:
        return 0
    try:
        with transaction.atomic():
            guide = issuer(waiting=row, actor=actor, as_of=as_of)
    except ValidationError:
        return 0  # still not issuable (the refusal is the origin's); it keeps waiting, visible in the queue
    return 1 if guide is not None else 0


@transaction.atomic
def guide_wait_withdraw(
    *, actor: Actor, origin_type: str, origin_id: int, reason: str, as_of: dt.date
) -> None:
    """The charge no longer exists (the fine was annulled): its guide stops waiting, audited with the reason."""
    row = (
        WaitingGuide.objects.select_for_update()
        .filter(origin_type=origin_type, origin_id=origin_id, state=WaitingState.WAITING)
        .first()
    )
    if row is None:
        return
    with audited_change(row, actor=actor, action="waiting_guide.withdraw", extra={"reason": reason[:255]}):
        row.state, row.last_try_on = WaitingState.WITHDRAWN, as_of
        row.save(update_fields=["state", "last_try_on"])


# --- payments and refunds -------------------------------------------------------------------------------


@sensitive_service
@transaction.atomic
def payment_register(
    *,
    actor: Actor,
    guide: PaymentGuide,
    paid_on: dt.date,
    amount_brl: Decimal,
    method: str,
    reference: str,
    as_of: dt.date,
    expected_brl: Decimal | None = None,
) -> Payment:
    """Record the payment of an open guide and let its origin move on (origins.register_payment_handler).

    ``expected_brl`` is what the payer owed on ``paid_on`` when it differs from the guide's amount (a charge
    with due date paid with its discount, or with fine and interest: apps.finance.charges)."""
    guide = guide_for_update(guide.pk)
    _check_payable(guide, paid_on, amount_brl, method, as_of, expected_brl)
    payment = Payment.objects.create(
        guide=guide,
        paid_on=paid_on,
        amount_brl=amount_brl,
        method=method,
        reference=reference.strip()[:100],
        registered_by=actor_user(actor),
    )
    before = guide.audit_snapshot()
    guide.status = GuideStatus.PAID
    guide.save(update_fields=["status"])
    audit_record(
        actor=actor,
        municipality=guide.municipality,
        action="payment.register",
        obj=payment,
        before=before,
        after={**payment.audit_snapshot(), "guide_status": guide.status},
    )
    handler = payment_handler(guide.origin_type)
    if handler is not None:
        handler(guide=guide, payment=payment, actor=actor, as_of=as_of)
    return payment


def _check_payable(
    guide: PaymentGuide,
    paid_on: dt.date,
    amount: Decimal,
    method: str,
    as_of: dt.date,
    expected: Decimal | None = None,
) -> None:
    if guide.status == GuideStatus.CANCELLED:
        raise refuse("guide", f"Guia {guide.number}: está cancelada e não pode ser paga.")
    if guide.status != GuideStatus.OPEN or Payment.objects.filter(guide=guide).exists():
        raise refuse("guide", f"Guia {guide.number}: o pagamento já foi registrado; não se paga duas vezes.")
    if method not in PaymentMethod.values:
        raise refuse("method", "Forma de pagamento: escolha uma das opções.")
    if paid_on > as_of:
        raise refuse("paid_on", "Data do pagamento: não pode ser no futuro.")
    if paid_on < guide.issued_on:
        raise refuse(
            "paid_on", f"Data do pagamento: anterior à emissão da guia ({guide.issued_on:%d/%m/%Y})."
        )
    owed = guide.amount_brl if expected is None else expected
    if amount != owed:
        raise refuse("amount_brl", f"Valor pago: {brl(amount)} difere do valor da guia ({brl(owed)}).")


@transaction.atomic
def refund_create(
    *, actor: Actor, payment: Payment, amount_brl: Decimal, due_on: dt.date, reason: str, as_of: dt.date
) -> Refund:
    """Owe back up to what was paid (a granted appeal, a fee charged in error)."""
    guide = guide_for_update(payment.guide_id)
    already = _refunded_total(payment)
    if amount_brl <= 0:
        raise refuse("amount_brl", "Valor da restituição: deve ser maior que zero.")
    if already + amount_brl > payment.amount_brl:
        raise refuse(
            "amount_brl",
            f"Valor da restituição: excede o que resta do pagamento ({brl(payment.amount_brl - already)}).",
        )
    if due_on < as_of:
        raise refuse("due_on", "Prazo da restituição: não pode ser no passado.")
    if not reason.strip():
        raise refuse("reason", "Motivo da restituição: campo obrigatório.")
    refund = Refund.objects.create(
        payment=payment,
        amount_brl=amount_brl,
        due_on=due_on,
        reason=reason.strip()[:255],
        created_by=actor_user(actor),
    )
    audit_record(
        actor=actor,
        municipality=guide.municipality,
        action="refund.create",
        obj=refund,
        after=refund.audit_snapshot(),
    )
    return refund


def _refunded_total(payment: Payment) -> Decimal:
    total: Decimal | None = payment.refunds.aggregate(total=Sum("amount_brl"))["total"]
    return total or Decimal("0.00")


@transaction.atomic
def refund_mark_paid(
    *, actor: Actor, refund: Refund, paid_on: dt.date, reference: str, as_of: dt.date
) -> Refund:
    """The refund was paid; when refunds paid cover the whole payment the guide becomes 'restituída'."""
    guide = guide_for_update(refund.payment.guide_id)
    refund = Refund.objects.select_for_update().get(pk=refund.pk)
    if refund.status == RefundStatus.PAID:
        raise refuse("status", "Restituição: já consta como paga.")
    if paid_on > as_of:
        raise refuse("paid_on", "Data da restituição: não pode ser no futuro.")
    if paid_on < refund.payment.paid_on:
        raise refuse("paid_on", "Data da restituição: anterior ao pagamento que ela devolve.")
    reference = reference.strip()[:100]
    with audited_change(
        refund,
        actor=actor,
        action="refund.mark_paid",
        municipality=guide.municipality,
        extra=lambda: {"guide_status": guide.status},
    ):
        refund.status, refund.paid_on, refund.paid_reference = RefundStatus.PAID, paid_on, reference
        refund.save(update_fields=["status", "paid_on", "paid_reference"])
        _mark_refunded_when_complete(guide, refund.payment)
    return refund


def _mark_refunded_when_complete(guide: PaymentGuide, payment: Payment) -> None:
    paid: Any = payment.refunds.filter(status=RefundStatus.PAID).aggregate(total=Sum("amount_brl"))["total"]
    if paid is not None and paid >= payment.amount_brl:
        guide.status = GuideStatus.REFUNDED
        guide.save(update_fields=["status"])
