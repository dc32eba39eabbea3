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
from apps.audit.services import audit_record, audited_change
from apps.finance import pix
from apps.finance.choices import FeeKind, GuideStatus, OriginType, PaymentMethod, RefundStatus
from apps.finance.formatting import brl
from apps.finance.hooks import guide_changed, guide_issued
from apps.finance.models import FeeSchedule, FinanceSettings, Payment, PaymentGuide, Refund
from apps.finance.origins import payment_handler
from apps.finance.selectors import fee_in_force, guide_for_update
from apps.finance.valuation import Charge, Valuation, declared_unit, legal_basis, valuate
from apps.lawconfig.config import RegimeChoiceError, calendar_for, regime_for
from apps.registry.identifiers import validate_cnpj, validate_cpf
from apps.tenancy.models import Municipality
from apps.tenancy.numbering import number_take
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
    fee = fee_in_force(municipality=municipality, regime_id=regime, fee_kind=fee_kind, on=fact_date)
    charge = Charge(
        quantity=fee.quantity,
        unit=fee.unit,
        cite=fee.cite,
        description=fee.get_fee_kind_display(),
        fee_kind=fee.fee_kind,
    )
    return guide_issue(
        actor=actor,
        municipality=municipality,
        regime_id=regime,
        charge=charge,
        payer_name=payer_name,
        payer_document=payer_document,
        origin_type=origin_type,
        origin_id=origin_id,
        fact_date=fact_date,
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
) -> PaymentGuide:
    """Issue a numbered guide with its PIX BR Code. ``fact_date`` is the chargeable event (the request, the
    infraction); ``as_of`` the issue date; ``due_on`` defaults to the municipality's term, on a business day."""
    regime = _regime(municipality, regime_id)
    settings = _finance_settings(municipality)
    payer = _payer(payer_name, payer_document)
    _check_origin(municipality, origin_type, origin_id, charge.fee_kind)
    valuation = _valuation(municipality, regime, charge, fact_date, as_of)
    guide = _guide_store(
        actor, municipality, regime, settings, payer, origin_type, origin_id, charge, valuation, as_of, due_on
    )
    audit_record(
        actor=actor,
        municipality=municipality,
        action="payment_guide.issue",
        obj=guide,
        after=guide.audit_snapshot(),
    )
    guide_issued(guide)
    return guide


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
        number=f"{sequence:06d}/{year}",
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


# --- payments and refunds -------------------------------------------------------------------------------


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
