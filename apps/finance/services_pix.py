"""Writes for charges with due date at the PSP, payments the bank reports and their review queue (issue 30).

- pix_charge_terms_save: the fine, interest and discount of the municipality's tax code (cited).
- pix_charge_open / pix_charge_revise: the guide's ``cobv`` as Outorga wants the PSP to hold it; both run in the
  guide's transaction (apps.finance.hooks) and only *queue* the call, which a task makes after the commit.
- pix_charge_sync: the call itself (outside any transaction), then the PSP's answer stored and audited; a
  failure is stored too and retried with backoff (task, then the ``pix_charges_sync`` periodic job).
- received_record: one payment the bank reported (webhook, reconciliation, CNAB) — settled on its guide through
  ``payment_register`` (so the origin's legal consequences follow at once) when it is exactly what the guide
  owes that day, otherwise queued for review; a repeated message changes nothing.
- payment_review_resolve: finance settles a reviewed payment on a guide, refunds it, or archives it (justified).
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from apps.accounts.actors import Actor, actor_user
from apps.accounts.stepup import sensitive_service
from apps.audit.services import audit_record, audited_change
from apps.finance import charges
from apps.finance.choices import (
    ChargeState,
    GuideStatus,
    PaymentMethod,
    ReceiptSource,
    ReviewReason,
    ReviewStatus,
)
from apps.finance.formatting import brl
from apps.finance.models import FinanceSettings, PaymentGuide
from apps.finance.pix_models import PaymentReview, PixCharge, PixChargeTerms, PixReceived
from apps.finance.psp.client import PspClient, PspError
from apps.finance.psp.config import psp_config
from apps.finance.services import payment_register
from apps.tenancy.models import Municipality
from apps.web.refusals import refuse

logger = logging.getLogger(__name__)

BACKOFF_BASE = dt.timedelta(minutes=1)
BACKOFF_MAX = dt.timedelta(hours=1)
TXID_PREFIX = "OUTORGA"


# --- terms ----------------------------------------------------------------------------------------------


@transaction.atomic
def pix_charge_terms_save(
    *,
    actor: Actor,
    municipality: Municipality,
    fine_percent: Decimal,
    interest_percent_month: Decimal,
    discount_percent: Decimal,
    discount_days_before_due: int,
    days_payable_after_due: int,
    cite: str,
) -> PixChargeTerms:
    """The encargos of a charge with due date, as the municipality's tax code sets them (cited)."""
    if not cite.strip():
        raise refuse(
            "cite", "Dispositivo do código tributário: informe a lei e o artigo que fixam os encargos."
        )
    for field, value in (
        ("fine_percent", fine_percent),
        ("interest_percent_month", interest_percent_month),
        ("discount_percent", discount_percent),
    ):
        if value < 0 or value >= 100:
            raise refuse(field, "Percentual: entre 0 e 99,99.")
    if not 0 <= days_payable_after_due <= 365:
        raise refuse("days_payable_after_due", "Dias para pagamento após o vencimento: entre 0 e 365.")
    if discount_days_before_due > 60:
        raise refuse("discount_days_before_due", "Desconto: no máximo 60 dias antes do vencimento.")
    current = PixChargeTerms.objects.select_for_update().filter(municipality=municipality).first()
    before = current.audit_snapshot() if current else None
    terms = current or PixChargeTerms(municipality=municipality)
    terms.fine_percent, terms.interest_percent_month = fine_percent, interest_percent_month
    terms.discount_percent, terms.discount_days_before_due = discount_percent, discount_days_before_due
    terms.days_payable_after_due, terms.cite = days_payable_after_due, cite.strip()[:200]
    terms.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="pix_charge_terms.save",
        obj=terms,
        before=before,
        after=terms.audit_snapshot(),
    )
    return terms


def _terms_snapshot(municipality: Municipality) -> dict[str, Any]:
    terms = PixChargeTerms.objects.filter(municipality=municipality).first()
    if terms is None:
        return {}
    return {key: str(value) for key, value in terms.audit_snapshot().items()}


# --- charges --------------------------------------------------------------------------------------------


def charge_txid(guide: PaymentGuide) -> str:
    """26 to 35 letters and digits, unique per receiver (API Pix TxId): prefix, IBGE code, year, sequence."""
    return f"{TXID_PREFIX}{guide.municipality.ibge_code}{guide.year}{guide.sequence:09d}"


def pix_charge_open(*, actor: Actor, guide: PaymentGuide) -> PixCharge | None:
    """In the guide's transaction: the charge to create at the PSP, when the municipality has one."""
    if psp_config(guide.municipality.ibge_code) is None:
        return None
    charge = PixCharge.objects.create(
        guide=guide,
        txid=charge_txid(guide),
        desired=ChargeState.ACTIVE,
        amount_brl=guide.amount_brl,
        due_on=guide.due_on,
        terms=_terms_snapshot(guide.municipality),
        next_attempt_at=timezone.now(),
    )
    audit_record(
        actor=actor,
        municipality=guide.municipality,
        action="pix_charge.open",
        obj=charge,
        after=charge.audit_snapshot(),
    )
    _sync_after_commit(charge.pk)
    return charge


def pix_charge_revise(*, actor: Actor, guide: PaymentGuide) -> PixCharge | None:
    """In the guide's transaction: the charge follows the guide (cancelled → removed; new value or due date →
    revised at the PSP)."""
    charge = PixCharge.objects.select_for_update().filter(guide=guide).first()
    if charge is None:
        return None
    desired = ChargeState.REMOVED if guide.status == GuideStatus.CANCELLED else ChargeState.ACTIVE
    if guide.status == GuideStatus.PAID:
        return charge  # paid at the PSP or by hand: nothing to revise, the charge is concluded there
    with audited_change(charge, actor=actor, action="pix_charge.revise", municipality=guide.municipality):
        charge.desired, charge.amount_brl, charge.due_on = desired, guide.amount_brl, guide.due_on
        charge.next_attempt_at = timezone.now()
        charge.save(update_fields=["desired", "amount_brl", "due_on", "next_attempt_at"])
    _sync_after_commit(charge.pk)
    return charge


def _sync_after_commit(charge_id: int) -> None:
    def enqueue() -> None:
        from apps.finance.tasks import sync_pix_charge

        sync_pix_charge.enqueue(charge_id)

    transaction.on_commit(enqueue, robust=True)


@dataclass(frozen=True)
class _Wanted:
    desired: str
    amount_brl: Decimal
    due_on: dt.date


def pix_charge_sync(*, charge_id: int, now: dt.datetime) -> PixCharge:
    """Make the PSP hold what the charge wants (create, revise or remove), then store its answer."""
    charge = PixCharge.objects.select_related("guide__municipality").get(pk=charge_id)
    if charge.next_attempt_at is None:
        return charge  # already in sync (a second task for the same change)
    wanted = _Wanted(charge.desired, charge.amount_brl, charge.due_on)
    try:
        answer = _push(charge)
    except PspError as exc:
        return _sync_failed(charge_id, wanted, exc, now)
    return _sync_done(charge_id, wanted, answer, now)


def _push(charge: PixCharge) -> dict[str, Any]:
    config = psp_config(charge.guide.municipality.ibge_code)
    if config is None:
        raise PspError("o município não tem mais banco (PSP) configurado", retryable=False)
    client = PspClient(config)
    if charge.desired == ChargeState.REMOVED:
        if charge.revision is None and not _exists(client, charge.txid):
            return {"status": charge.desired}  # never reached the PSP: nothing to remove there
        return client.cobv_revise(charge.txid, charges.removal_body())
    body = _body(charge)
    if charge.revision is not None:
        return client.cobv_revise(charge.txid, body)
    try:
        return client.cobv_create(charge.txid, body)
    except PspError as exc:
        # A create that timed out may have reached the PSP: the same txid then exists, and is revised instead.
        if exc.retryable or not _exists(client, charge.txid):
            raise
        return client.cobv_revise(charge.txid, body)


def _exists(client: PspClient, txid: str) -> bool:
    try:
        client.cobv_get(txid)
    except PspError as exc:
        if exc.status == 404:
            return False
        raise
    return True


def _body(charge: PixCharge) -> dict[str, Any]:
    guide = charge.guide
    settings = FinanceSettings.objects.get(municipality=guide.municipality)
    return charges.cobv_body(
        original=charge.amount_brl,
        due_on=charge.due_on,
        terms=charge.terms,
        payer_name=guide.payer_name,
        payer_document=guide.payer_document,
        pix_key=settings.pix_key,
        description=f"Guia {guide.number} - {guide.description}",
    )


@transaction.atomic
def _sync_done(charge_id: int, wanted: _Wanted, answer: dict[str, Any], now: dt.datetime) -> PixCharge:
    charge = PixCharge.objects.select_for_update().select_related("guide__municipality").get(pk=charge_id)
    guide = PaymentGuide.objects.select_for_update().get(pk=charge.guide_id)
    changed_meanwhile = wanted != _Wanted(charge.desired, charge.amount_brl, charge.due_on)
    with audited_change(charge, actor=None, action="pix_charge.sync", municipality=guide.municipality):
        charge.confirmed = wanted.desired
        if isinstance(answer.get("revisao"), int):
            charge.revision = answer["revisao"]
        elif charge.revision is None and wanted.desired == ChargeState.ACTIVE:
            charge.revision = 0
        copy_paste = str(answer.get("pixCopiaECola") or "")
        if copy_paste and wanted.desired == ChargeState.ACTIVE:
            charge.pix_copy_paste = copy_paste
        location = answer.get("loc", {}).get("location") if isinstance(answer.get("loc"), dict) else None
        charge.location = str(location or charge.location)[:255]
        charge.attempts, charge.last_error, charge.synced_at = 0, "", now
        charge.next_attempt_at = now if changed_meanwhile else None
        charge.save()
    if (
        charge.pix_copy_paste
        and guide.pix_payload != charge.pix_copy_paste
        and guide.status == GuideStatus.OPEN
    ):
        with audited_change(guide, actor=None, action="payment_guide.pix_from_psp"):
            guide.pix_payload = charge.pix_copy_paste
            guide.save(update_fields=["pix_payload"])
    if changed_meanwhile:
        _sync_after_commit(charge.pk)
    return charge


@transaction.atomic
def _sync_failed(charge_id: int, wanted: _Wanted, exc: PspError, now: dt.datetime) -> PixCharge:
    charge = PixCharge.objects.select_for_update().select_related("guide__municipality").get(pk=charge_id)
    with audited_change(
        charge, actor=None, action="pix_charge.sync_failed", municipality=charge.guide.municipality
    ):
        charge.attempts = min(charge.attempts + 1, 32000)
        delay = BACKOFF_BASE * 2 ** min(charge.attempts - 1, 10) if exc.retryable else BACKOFF_MAX
        charge.next_attempt_at = now + min(delay, BACKOFF_MAX)
        charge.last_error = exc.message[:300]
        charge.save(update_fields=["attempts", "next_attempt_at", "last_error"])
    logger.warning("PSP sync of charge %s failed (%s): %s", charge.txid, wanted.desired, exc.message)
    return charge


def pix_charges_due(*, now: dt.datetime) -> list[int]:
    return list(
        PixCharge.objects.filter(next_attempt_at__lte=now)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)
    )


# --- money the bank reports -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceiptOutcome:
    received: PixReceived
    created: bool
    settled: bool
    review: PaymentReview | None


def _local_date(instant: dt.datetime) -> dt.date:
    return timezone.localtime(instant).date()


@transaction.atomic
def received_record(
    *,
    municipality: Municipality,
    end_to_end_id: str,
    txid: str,
    amount_brl: Decimal,
    received_at: dt.datetime,
    source: str,
    raw: dict[str, Any],
    guide: PaymentGuide | None = None,
    expected_brl: Decimal | None = None,
    actor: Actor = None,
    as_of: dt.date,
) -> ReceiptOutcome:
    """Record one payment the bank reported, once; settle it on its guide or queue it for review."""
    existing = PixReceived.objects.filter(municipality=municipality, end_to_end_id=end_to_end_id).first()
    if existing is not None:
        return ReceiptOutcome(existing, False, existing.settled, getattr(existing, "review", None))
    if guide is None and txid:
        charge = PixCharge.objects.filter(guide__municipality=municipality, txid=txid).first()
        guide = charge.guide if charge else None
    received = PixReceived.objects.create(
        municipality=municipality,
        end_to_end_id=end_to_end_id,
        txid=txid,
        amount_brl=amount_brl,
        received_at=received_at,
        source=source,
        guide=guide,
        raw=raw,
    )
    audit_record(
        actor=actor,
        municipality=municipality,
        action="payment_received.record",
        obj=received,
        after=received.audit_snapshot(),
    )
    review = _settle_or_review(received, as_of, expected_brl, actor)
    return ReceiptOutcome(received, True, received.settled, review)


def _expected(guide: PaymentGuide, paid_on: dt.date) -> Decimal:
    charge = PixCharge.objects.filter(guide=guide).first()
    if charge is None:
        return guide.amount_brl
    return charges.amount_due_on(
        original=charge.amount_brl, due_on=charge.due_on, terms=charge.terms, paid_on=paid_on
    )


def _settle_or_review(
    received: PixReceived, as_of: dt.date, expected_brl: Decimal | None, actor: Actor
) -> PaymentReview | None:
    guide = received.guide
    if guide is None:
        return _review(received, ReviewReason.UNKNOWN, "Nenhuma guia corresponde a este pagamento.", None)
    guide = PaymentGuide.objects.select_for_update().get(pk=guide.pk)
    if guide.status == GuideStatus.CANCELLED:
        return _review(received, ReviewReason.CANCELLED, f"A guia {guide.number} está cancelada.", None)
    if guide.status != GuideStatus.OPEN:
        return _review(received, ReviewReason.ALREADY_PAID, f"A guia {guide.number} já está paga.", None)
    paid_on = _local_date(received.received_at)
    expected = _expected(guide, paid_on) if expected_brl is None else expected_brl
    if received.amount_brl != expected:
        detail = (
            f"Recebido {brl(received.amount_brl)}; a guia {guide.number} devia {brl(expected)} "
            f"em {paid_on:%d/%m/%Y}."
        )
        return _review(received, ReviewReason.AMOUNT, detail, expected)
    try:
        with transaction.atomic():
            _register(received, guide, paid_on, max(as_of, paid_on), expected, actor=actor)
    except ValidationError as exc:
        detail = f"Baixa da guia {guide.number} recusada: {' '.join(exc.messages)}"
        return _review(received, ReviewReason.REFUSED, detail[:300], expected)
    return None


def _register(
    received: PixReceived,
    guide: PaymentGuide,
    paid_on: dt.date,
    as_of: dt.date,
    expected: Decimal,
    *,
    actor: Actor,
) -> None:
    method = PaymentMethod.BANK_SLIP if received.source == ReceiptSource.CNAB else PaymentMethod.PIX
    payment_register(
        actor=actor,
        guide=guide,
        paid_on=paid_on,
        amount_brl=received.amount_brl,
        method=method,
        reference=received.end_to_end_id,
        as_of=as_of,
        expected_brl=expected,
    )
    with audited_change(received, actor=actor, action="payment_received.settle"):
        received.guide, received.settled = guide, True
        received.save(update_fields=["guide", "settled"])


def _review(received: PixReceived, reason: str, detail: str, expected: Decimal | None) -> PaymentReview:
    review = PaymentReview.objects.create(
        received=received, reason=reason, detail=detail, expected_brl=expected
    )
    audit_record(
        actor=None,
        municipality=received.municipality,
        action="payment_review.open",
        obj=review,
        after=review.audit_snapshot(),
    )
    return review


# --- the review queue -----------------------------------------------------------------------------------

SETTLE, REFUND, ARCHIVE = "settle", "refund", "archive"


@sensitive_service
@transaction.atomic
def payment_review_resolve(
    *,
    actor: Actor,
    review: PaymentReview,
    decision: str,
    note: str,
    guide: PaymentGuide | None = None,
    as_of: dt.date,
) -> PaymentReview:
    """Finance decides: settle the money on an open guide (any amount, justified), refund it to the payer, or
    archive it with a justification (e.g. the bank already returned it)."""
    review = (
        PaymentReview.objects.select_for_update().select_related("received__municipality").get(pk=review.pk)
    )
    if review.status != ReviewStatus.OPEN:
        raise refuse("decision", "Este pagamento já foi decidido.")
    if not note.strip():
        raise refuse("note", "Justificativa: campo obrigatório.")
    received = review.received
    with audited_change(
        review, actor=actor, action=f"payment_review.{decision}", municipality=received.municipality
    ):
        if decision == SETTLE:
            _settle_reviewed(review, received, guide, actor, as_of)
        elif decision == REFUND:
            review.status, review.refund_reference = ReviewStatus.REFUND, f"D{uuid.uuid4().hex[:30]}"
            if received.source == ReceiptSource.CNAB:
                review.refund_outcome = "boleto: devolver por transferência e guardar o comprovante"
            else:
                review.refund_outcome = "devolução a pedir ao banco"
        elif decision == ARCHIVE:
            review.status = ReviewStatus.ARCHIVED
        else:
            raise refuse("decision", "Decisão: escolha baixar na guia, devolver ao pagador ou arquivar.")
        review.resolution_note = note.strip()[:300]
        review.resolved_by, review.resolved_at = actor_user(actor), timezone.now()
        review.save()
    if decision == REFUND and received.source != ReceiptSource.CNAB:
        _refund_after_commit(review.pk)
    return review


def _settle_reviewed(
    review: PaymentReview, received: PixReceived, guide: PaymentGuide | None, actor: Actor, as_of: dt.date
) -> None:
    target = guide or received.guide
    if target is None or target.municipality_id != received.municipality_id:
        raise refuse("guide", "Guia: informe o número de uma guia em aberto deste município.")
    target = PaymentGuide.objects.select_for_update().get(pk=target.pk)
    if target.status != GuideStatus.OPEN:
        raise refuse("guide", f"Guia {target.number}: só uma guia em aberto recebe a baixa.")
    paid_on = _local_date(received.received_at)
    _register(received, target, paid_on, max(as_of, paid_on), received.amount_brl, actor=actor)
    review.status = ReviewStatus.SETTLED


def _refund_after_commit(review_id: int) -> None:
    def enqueue() -> None:
        from apps.finance.tasks import refund_pix

        refund_pix.enqueue(review_id)

    transaction.on_commit(enqueue, robust=True)


def payment_review_refund_send(*, review_id: int) -> str:
    """Ask the PSP to return the PIX (API Pix devolução); the answer is audited on the review."""
    review = PaymentReview.objects.select_related("received__municipality").get(pk=review_id)
    received = review.received
    config = psp_config(received.municipality.ibge_code)
    if config is None:
        return "sem banco configurado: devolver por fora e registrar o comprovante"
    try:
        answer = PspClient(config).refund_request(
            received.end_to_end_id, review.refund_reference[:35], charges.money(received.amount_brl)
        )
        outcome = f"devolução pedida ao banco: {answer.get('status', 'EM_PROCESSAMENTO')}"
    except PspError as exc:
        outcome = f"devolução não aceita pelo banco: {exc.message}"
    _refund_outcome(review_id, outcome)
    return outcome


@transaction.atomic
def _refund_outcome(review_id: int, outcome: str) -> None:
    review = (
        PaymentReview.objects.select_for_update().select_related("received__municipality").get(pk=review_id)
    )
    with audited_change(
        review, actor=None, action="payment_review.refund_sent", municipality=review.received.municipality
    ):
        review.refund_outcome = outcome[:300]
        review.save(update_fields=["refund_outcome"])


# --- CNAB 240 return files ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CnabLine:
    title: Any  # apps.finance.cnab240.Title
    guide_number: str
    outcome: str


class _Rollback(Exception):
    pass


def cnab_return_preview(*, municipality: Municipality, content: str, as_of: dt.date) -> list[CnabLine]:
    """What applying the file would do, line by line: the application itself, rolled back."""
    lines: list[CnabLine] = []
    try:
        with transaction.atomic():
            lines = _cnab_apply(None, municipality, content, as_of)
            raise _Rollback
    except _Rollback:
        pass
    return lines


@sensitive_service
@transaction.atomic
def cnab_return_apply(
    *, actor: Actor, municipality: Municipality, content: str, as_of: dt.date
) -> list[CnabLine]:
    """Settle every payment of the file in one transaction; what does not match goes to the review queue."""
    lines = _cnab_apply(actor, municipality, content, as_of)
    audit_record(
        actor=actor,
        municipality=municipality,
        action="cnab_return.apply",
        object_type="finance.cnabreturn",
        after={"titles": len(lines), "outcomes": [line.outcome for line in lines]},
    )
    return lines


def _boleto_expected(guide: PaymentGuide | None, title: Any) -> Decimal | None:
    """What the boleto owed as the bank computed it (nominal + interest/fine − discount), when its nominal value
    is the guide's; otherwise the guide's amount, so any difference waits for review."""
    if guide is None:
        return None
    if title.nominal_brl != guide.amount_brl:
        return guide.amount_brl
    owed: Decimal = title.nominal_brl + title.charges_brl - title.discount_brl
    return owed


def _cnab_apply(actor: Actor, municipality: Municipality, content: str, as_of: dt.date) -> list[CnabLine]:
    from apps.finance import cnab240

    try:
        titles = cnab240.parse(content)
    except cnab240.CnabError as exc:
        raise refuse("file", str(exc)) from exc
    lines = []
    for title in titles:
        guide = PaymentGuide.objects.filter(municipality=municipality, number=title.document_number).first()
        number = guide.number if guide else ""
        if not title.is_payment:
            lines.append(CnabLine(title, number, "ignorado"))
            continue
        if title.paid_on is None or title.paid_brl <= 0:
            raise refuse("file", f"Linha {title.line}: liquidação sem data ou sem valor pago.")
        instant = timezone.make_aware(dt.datetime.combine(title.paid_on, dt.time(12, 0)))
        outcome = received_record(
            municipality=municipality,
            end_to_end_id=title.key,
            txid=title.our_number[:35],
            amount_brl=title.paid_brl,
            received_at=instant,
            source=ReceiptSource.CNAB,
            raw={"linha": title.line, "nosso_numero": title.our_number, "documento": title.document_number},
            guide=guide,
            expected_brl=_boleto_expected(guide, title),
            actor=actor,
            as_of=as_of,
        )
        state = "já registrado" if not outcome.created else ("baixa" if outcome.settled else "conferência")
        lines.append(CnabLine(title, number, state))
    return lines
