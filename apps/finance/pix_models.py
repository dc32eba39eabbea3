"""Charges with due date at the municipality's PSP (API Pix ``cobv``), the PIX the bank reports, and the review
queue of money that did not match a guide. Imported by ``apps.finance.models`` so Django registers them.

- PixChargeTerms: the fine, interest and discount the municipality's tax code sets for a late or early payment,
  with the article that sets them; every charge copies them when it is created, so a later change of the code
  never alters a charge already handed to a payer.
- PixCharge: the guide's ``cobv`` — what Outorga wants the PSP to hold (``desired``) and what the PSP confirmed
  (``revision``, copia e cola). The PSP is called only after the commit, and retried (apps.finance.services_pix).
- PixReceived: one PIX the bank reported (webhook, the daily reconciliation, a CNAB return line), unique by its
  end-to-end id, so a message repeated by the bank is recognised and never counted twice.
- PaymentReview: money that came in and could not be settled on its own (a different amount, an already-paid or
  cancelled guide, an unknown charge): it waits for finance, who settles it on a guide or refunds it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from apps.finance.choices import ChargeState, ReceiptSource, ReviewReason, ReviewStatus, TaxFeedKind
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class PixChargeTermsQuerySet(MunicipalityScopedQuerySet["PixChargeTerms"]):
    pass


class PixChargeTerms(models.Model):
    """Fine, interest and discount of a charge with due date, as the municipality's tax code sets them."""

    municipality = models.OneToOneField(
        Municipality, on_delete=models.PROTECT, related_name="pix_charge_terms", verbose_name="município"
    )
    fine_percent = models.DecimalField("multa após o vencimento (%)", max_digits=5, decimal_places=2)
    interest_percent_month = models.DecimalField(
        "juros de mora (% ao mês, dias corridos)", max_digits=5, decimal_places=2
    )
    discount_percent = models.DecimalField(
        "desconto por pagamento antecipado (%)", max_digits=5, decimal_places=2, default=Decimal("0")
    )
    discount_days_before_due = models.PositiveSmallIntegerField(
        "desconto até quantos dias antes do vencimento", default=0
    )
    days_payable_after_due = models.PositiveSmallIntegerField(
        "dias em que a cobrança pode ser paga após o vencimento", default=30
    )
    cite = models.CharField(
        "dispositivo do código tributário",
        max_length=200,
        help_text="Ex.: Lei Complementar nº 100/2010 (Código Tributário Municipal), art. 210",
    )
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    objects = PixChargeTermsQuerySet.as_manager()

    class Meta:
        verbose_name = "encargos da cobrança PIX"
        verbose_name_plural = "encargos da cobrança PIX"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    fine_percent__gte=0, interest_percent_month__gte=0, discount_percent__gte=0
                )
                & models.Q(discount_percent__lt=100),
                name="pix_terms_percents_valid",
            )
        ]

    def __str__(self) -> str:
        return f"Encargos da cobrança PIX de {self.municipality}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "fine_percent": self.fine_percent,
            "interest_percent_month": self.interest_percent_month,
            "discount_percent": self.discount_percent,
            "discount_days_before_due": self.discount_days_before_due,
            "days_payable_after_due": self.days_payable_after_due,
            "cite": self.cite,
        }


class PixChargeQuerySet(MunicipalityScopedQuerySet["PixCharge"]):
    municipality_field: ClassVar[str] = "guide__municipality"


class PixCharge(models.Model):
    """The guide's charge with due date at the PSP, with the terms it was created with."""

    guide = models.OneToOneField(
        "finance.PaymentGuide", on_delete=models.PROTECT, related_name="pix_charge", verbose_name="guia"
    )
    txid = models.CharField("identificador da cobrança (txid)", max_length=35, unique=True)
    desired = models.CharField("situação pedida ao banco", max_length=16, choices=ChargeState.choices)
    confirmed = models.CharField(
        "situação confirmada pelo banco", max_length=16, choices=ChargeState.choices, blank=True
    )
    amount_brl = models.DecimalField("valor original (R$)", max_digits=12, decimal_places=2)
    due_on = models.DateField("vencimento")
    terms = models.JSONField("encargos (multa, juros, desconto e fundamento)", default=dict)
    revision = models.PositiveIntegerField("revisão no banco", null=True, blank=True)
    pix_copy_paste = models.TextField("PIX copia e cola do banco", blank=True)
    location = models.CharField("localização do payload", max_length=255, blank=True)
    attempts = models.PositiveSmallIntegerField("tentativas sem sucesso", default=0)
    next_attempt_at = models.DateTimeField("próxima tentativa", null=True, blank=True)
    last_error = models.CharField("último erro", max_length=300, blank=True)
    synced_at = models.DateTimeField("confirmada pelo banco em", null=True, blank=True)
    created_at = models.DateTimeField("criada em", auto_now_add=True)

    objects = PixChargeQuerySet.as_manager()

    class Meta:
        verbose_name = "cobrança PIX com vencimento"
        verbose_name_plural = "cobranças PIX com vencimento"
        indexes = [models.Index(fields=["next_attempt_at"], name="pix_charge_next_attempt")]

    def __str__(self) -> str:
        return f"Cobrança {self.txid}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "guide": self.guide.number,
            "txid": self.txid,
            "desired": self.desired,
            "confirmed": self.confirmed,
            "amount_brl": self.amount_brl,
            "due_on": self.due_on,
            "revision": self.revision,
            "attempts": self.attempts,
            "last_error": self.last_error,
        }


class PixReceivedQuerySet(MunicipalityScopedQuerySet["PixReceived"]):
    pass


class PixReceived(models.Model):
    """One payment the bank reported, once (unique end-to-end id / CNAB line key per municipality)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="pix_received", verbose_name="município"
    )
    end_to_end_id = models.CharField("identificador fim a fim (endToEndId)", max_length=64)
    txid = models.CharField("txid / nosso número", max_length=35, blank=True)
    amount_brl = models.DecimalField("valor recebido (R$)", max_digits=12, decimal_places=2)
    received_at = models.DateTimeField("recebido em")
    source = models.CharField("informado por", max_length=16, choices=ReceiptSource.choices)
    guide = models.ForeignKey(
        "finance.PaymentGuide",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="pix_received",
        verbose_name="guia",
    )
    settled = models.BooleanField("baixado na guia", default=False)
    raw = models.JSONField("mensagem do banco", default=dict)
    recorded_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = PixReceivedQuerySet.as_manager()

    class Meta:
        verbose_name = "pagamento informado pelo banco"
        verbose_name_plural = "pagamentos informados pelo banco"
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "end_to_end_id"], name="pix_received_once"),
            models.CheckConstraint(condition=models.Q(amount_brl__gt=0), name="pix_received_positive"),
        ]

    def __str__(self) -> str:
        return f"PIX {self.end_to_end_id}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "end_to_end_id": self.end_to_end_id,
            "txid": self.txid,
            "amount_brl": self.amount_brl,
            "received_at": self.received_at,
            "source": self.source,
            "guide": self.guide.number if self.guide else None,
            "settled": self.settled,
        }


class PaymentReviewQuerySet(MunicipalityScopedQuerySet["PaymentReview"]):
    municipality_field: ClassVar[str] = "received__municipality"


class PaymentReview(models.Model):
    """Money that came in and waits for finance: settled on a guide, refunded to the payer, or archived."""

    received = models.OneToOneField(
        PixReceived, on_delete=models.PROTECT, related_name="review", verbose_name="pagamento recebido"
    )
    reason = models.CharField("motivo", max_length=16, choices=ReviewReason.choices)
    detail = models.CharField("detalhe", max_length=300)
    expected_brl = models.DecimalField(
        "valor esperado (R$)", max_digits=12, decimal_places=2, null=True, blank=True
    )
    status = models.CharField(
        "situação", max_length=16, choices=ReviewStatus.choices, default=ReviewStatus.OPEN
    )
    resolution_note = models.CharField("justificativa da decisão", max_length=300, blank=True)
    refund_reference = models.CharField("identificador da devolução", max_length=64, blank=True)
    refund_outcome = models.CharField("resposta do banco à devolução", max_length=300, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="decidido por",
    )
    resolved_at = models.DateTimeField("decidido em", null=True, blank=True)
    created_at = models.DateTimeField("entrou na conferência em", auto_now_add=True)

    objects = PaymentReviewQuerySet.as_manager()

    class Meta:
        verbose_name = "pagamento em conferência"
        verbose_name_plural = "pagamentos em conferência"
        ordering = ["status", "created_at", "id"]

    def __str__(self) -> str:
        return f"Conferência do pagamento {self.received.end_to_end_id}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "received": self.received.end_to_end_id,
            "reason": self.reason,
            "detail": self.detail,
            "expected_brl": self.expected_brl,
            "status": self.status,
            "resolution_note": self.resolution_note,
            "refund_reference": self.refund_reference,
            "refund_outcome": self.refund_outcome,
        }


class TaxFeedQuerySet(MunicipalityScopedQuerySet["TaxFeedEvent"]):
    pass


class TaxFeedEvent(models.Model):
    """One line of the incremental feed the prefeitura's tax system reads (docs/tax-feed.md): a fine inscribed
    for dívida ativa, then its payment, cancellation or refund. The id is the cursor; a guide has at most one
    event of each kind, so collecting twice adds nothing."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="tax_feed", verbose_name="município"
    )
    guide = models.ForeignKey(
        "finance.PaymentGuide", on_delete=models.PROTECT, related_name="tax_feed", verbose_name="guia"
    )
    kind = models.CharField("tipo", max_length=16, choices=TaxFeedKind.choices)
    occurred_on = models.DateField("data do fato")
    payload = models.JSONField("dados", default=dict)
    recorded_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = TaxFeedQuerySet.as_manager()

    class Meta:
        verbose_name = "evento do envio ao sistema tributário"
        verbose_name_plural = "eventos do envio ao sistema tributário"
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["guide", "kind"], name="tax_feed_once_per_kind")]
        indexes = [models.Index(fields=["municipality", "id"], name="tax_feed_cursor")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} da guia {self.guide.number}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {"guide": self.guide.number, "kind": self.kind, "occurred_on": self.occurred_on}
