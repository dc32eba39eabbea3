"""Fees, payment guides (with their PIX BR Code), payments and refunds of a municipality.

Amounts in reais are Decimal with two places; quantities in fiscal units keep four. A guide freezes the
conversion it was issued with (unit value, valuation date and the engine's decision), so a later UFM change
never alters a guide already handed to a payer.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from apps.finance.choices import (
    FeeKind,
    GuideStatus,
    OriginType,
    PaymentMethod,
    RefundStatus,
    ValuationMoment,
    WaitingState,
)
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet

POSITIVE = models.Q(amount_brl__gt=Decimal("0"))


REAIS = "brl"  # plain reais; any other unit is declared by the regime (units.yaml)


class FinanceSettingsQuerySet(MunicipalityScopedQuerySet["FinanceSettings"]):
    pass


class FinanceSettings(models.Model):
    """Where a municipality receives PIX payments, and how long its guides stay payable."""

    municipality = models.OneToOneField(
        Municipality, on_delete=models.PROTECT, related_name="finance_settings", verbose_name="município"
    )
    pix_key = models.CharField("chave PIX", max_length=77)
    receiver_name = models.CharField("nome do recebedor (até 25 caracteres)", max_length=25)
    receiver_city = models.CharField("cidade do recebedor (até 15 caracteres)", max_length=15)
    guide_due_days = models.PositiveSmallIntegerField(
        "vencimento da guia (dias corridos após a emissão)", default=10
    )
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    objects = FinanceSettingsQuerySet.as_manager()

    class Meta:
        verbose_name = "configuração financeira"
        verbose_name_plural = "configurações financeiras"

    def __str__(self) -> str:
        return f"Recebimento PIX de {self.municipality}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "pix_key": self.pix_key,
            "receiver_name": self.receiver_name,
            "receiver_city": self.receiver_city,
            "guide_due_days": self.guide_due_days,
        }


class FeeScheduleQuerySet(MunicipalityScopedQuerySet["FeeSchedule"]):
    pass


class FeeSchedule(models.Model):
    """A fee the law or the municipality fixes, from a date on (the latest valid_from ≤ date applies)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="fee_schedules", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    fee_kind = models.CharField("taxa", max_length=16, choices=FeeKind.choices)
    quantity = models.DecimalField("quantidade", max_digits=12, decimal_places=4)
    # "brl" or a unit the regime declares in units.yaml (UFM…): no closed list of units here.
    unit = models.CharField("unidade", max_length=32)
    cite = models.CharField("dispositivo que fixa a taxa", max_length=80, help_text="Ex.: art8")
    valid_from = models.DateField("vigente a partir de")

    objects = FeeScheduleQuerySet.as_manager()

    class Meta:
        verbose_name = "taxa"
        verbose_name_plural = "tabela de taxas"
        ordering = ["municipality", "regime_id", "fee_kind", "-valid_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "regime_id", "fee_kind", "valid_from"],
                name="fee_schedule_one_per_date",
            ),
            models.CheckConstraint(condition=models.Q(quantity__gt=0), name="fee_schedule_quantity_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.get_fee_kind_display()}: {self.quantity.normalize()} {self.get_unit_display()}"

    def get_unit_display(self) -> str:
        return unit_display(self.regime_id, self.unit)

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "regime_id": self.regime_id,
            "fee_kind": self.fee_kind,
            "quantity": self.quantity,
            "unit": self.unit,
            "cite": self.cite,
            "valid_from": self.valid_from,
        }


class FineValuationQuerySet(MunicipalityScopedQuerySet["FineValuation"]):
    pass


class FineValuation(models.Model):
    """The valuation of a fine in reais: made once, at the moment the law or the municipality's interpretation
    sets, with the unit value and the date it used and the reason (the engine's explanation); every guide of the
    fine charges it. A re-valuation (a later guide under a reading that values the fine on the guide's issue) is
    a new row that names the one it replaces and why; rows are never edited."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="fine_valuations", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    origin_type = models.CharField("origem", max_length=16, choices=OriginType.choices)
    origin_id = models.PositiveBigIntegerField("id da origem")
    quantity = models.DecimalField("quantidade", max_digits=12, decimal_places=4)
    unit = models.CharField("unidade", max_length=32)
    amount_brl = models.DecimalField("valor (R$)", max_digits=12, decimal_places=2)
    unit_value = models.DecimalField("valor da unidade (R$)", max_digits=12, decimal_places=4, null=True)
    valuation_date = models.DateField("data de valoração", null=True)
    moment = models.CharField("momento da valoração", max_length=16, choices=ValuationMoment.choices)
    legal_basis = models.CharField("fundamento legal", max_length=255)
    reason = models.TextField("fundamento da valoração")
    decision = models.JSONField("decisão do engine", default=dict, blank=True)
    replaces = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name="substitui a valoração",
    )
    revaluation_reason = models.CharField("motivo da nova valoração", max_length=500, blank=True)
    valued_on = models.DateField("valorada em")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="feita por",
    )
    created_at = models.DateTimeField("registrada em", auto_now_add=True)

    objects = FineValuationQuerySet.as_manager()

    class Meta:
        verbose_name = "valoração de multa"
        verbose_name_plural = "valorações de multas"
        ordering = ["origin_type", "origin_id", "id"]
        constraints = [models.CheckConstraint(condition=POSITIVE, name="fine_valuation_amount_positive")]
        indexes = [models.Index(fields=["origin_type", "origin_id"], name="fine_valuation_origin")]

    def __str__(self) -> str:
        return f"Valoração de {self.quantity.normalize()} {self.unit} em R$ {self.amount_brl}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "origin_type": self.origin_type,
            "origin_id": self.origin_id,
            "quantity": self.quantity,
            "unit": self.unit,
            "amount_brl": self.amount_brl,
            "unit_value": self.unit_value,
            "valuation_date": self.valuation_date,
            "moment": self.moment,
            "reason": self.reason,
            "replaces": self.replaces_id,
            "revaluation_reason": self.revaluation_reason,
        }


class WaitingGuideQuerySet(MunicipalityScopedQuerySet["WaitingGuide"]):
    pass


class WaitingGuide(models.Model):
    """A guide that could not be valued yet because a dated value the law leans on (next year's UFESP, the
    town's UFM, an index) has not been entered: the charge waits here, visibly, and is issued by itself (with
    its due date counted as the law counts it) as soon as the value is entered."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="waiting_guides", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    origin_type = models.CharField("origem", max_length=16, choices=OriginType.choices)
    origin_id = models.PositiveBigIntegerField("id da origem")
    description = models.CharField("descrição", max_length=200)
    payer_name = models.CharField("contribuinte", max_length=200)
    quantity = models.DecimalField("quantidade", max_digits=12, decimal_places=4)
    unit = models.CharField("unidade", max_length=32)
    missing_value = models.CharField("valor que falta", max_length=200)
    missing_on = models.DateField("data do valor que falta")
    where_to_enter = models.CharField("onde cadastrar o valor", max_length=300)
    state = models.CharField(
        "situação", max_length=16, choices=WaitingState.choices, default=WaitingState.WAITING
    )
    requested_on = models.DateField("pedida em")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="pedida por",
    )
    last_try_on = models.DateField("última tentativa em")
    guide = models.OneToOneField(
        "PaymentGuide",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="waited",
        verbose_name="guia emitida",
    )
    issued_on = models.DateField("emitida em", null=True, blank=True)

    objects = WaitingGuideQuerySet.as_manager()

    class Meta:
        verbose_name = "guia aguardando valor"
        verbose_name_plural = "guias aguardando valor"
        ordering = ["state", "requested_on", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["origin_type", "origin_id"],
                condition=models.Q(state="waiting"),
                name="waiting_guide_one_per_origin",
            )
        ]

    def __str__(self) -> str:
        return f"{self.description} (aguardando {self.missing_value})"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "origin_type": self.origin_type,
            "origin_id": self.origin_id,
            "quantity": self.quantity,
            "unit": self.unit,
            "missing_value": self.missing_value,
            "missing_on": self.missing_on,
            "state": self.state,
            "guide": self.guide.number if self.guide else None,
        }

    @property
    def waiting_message(self) -> str:
        """What the operator and finance read: why the guide waits and until when."""
        return (
            f"Aguardando a publicação do {self.missing_value}, até o seu cadastro {self.where_to_enter}; a guia é "
            "emitida automaticamente no mesmo dia do cadastro, com o prazo de pagamento contado como a lei manda."
        )


class PaymentGuideQuerySet(MunicipalityScopedQuerySet["PaymentGuide"]):
    pass


class PaymentGuide(models.Model):
    """A guia de recolhimento: who pays what, why (legal basis), how much in reais and how (PIX)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="payment_guides", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    number = models.CharField("número", max_length=16)
    year = models.PositiveSmallIntegerField("ano")
    sequence = models.PositiveIntegerField("sequência")
    payer_name = models.CharField("contribuinte", max_length=200)
    payer_document = models.CharField("CPF/CNPJ do contribuinte", max_length=14)
    description = models.CharField("descrição", max_length=200)
    fee_kind = models.CharField("taxa", max_length=16, choices=FeeKind.choices, blank=True)
    origin_type = models.CharField("origem", max_length=16, choices=OriginType.choices)
    origin_id = models.PositiveBigIntegerField("id da origem")
    quantity = models.DecimalField("quantidade", max_digits=12, decimal_places=4)
    unit = models.CharField("unidade", max_length=32)
    legal_basis = models.CharField("fundamento legal", max_length=255)
    amount_brl = models.DecimalField("valor (R$)", max_digits=12, decimal_places=2)
    unit_value_used = models.DecimalField("valor da unidade (R$)", max_digits=12, decimal_places=4, null=True)
    valuation_date = models.DateField("data de valoração da unidade", null=True)
    conversion = models.JSONField("decisão da conversão (engine)", default=dict, blank=True)
    fine_valuation = models.ForeignKey(
        FineValuation,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="guides",
        verbose_name="valoração da multa",
    )
    issued_on = models.DateField("emitida em")
    due_on = models.DateField("vencimento")
    status = models.CharField(
        "situação", max_length=16, choices=GuideStatus.choices, default=GuideStatus.OPEN
    )
    pix_payload = models.TextField("PIX copia e cola")
    cancelled_on = models.DateField("cancelada em", null=True, blank=True)
    cancel_reason = models.CharField("motivo do cancelamento", max_length=255, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="emitida por",
    )

    objects = PaymentGuideQuerySet.as_manager()

    class Meta:
        verbose_name = "guia de pagamento"
        verbose_name_plural = "guias de pagamento"
        ordering = ["-year", "-sequence"]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "number"], name="guide_number_unique"),
            models.UniqueConstraint(
                fields=["municipality", "year", "sequence"], name="guide_sequence_unique"
            ),
            models.CheckConstraint(condition=POSITIVE, name="guide_amount_positive"),
        ]
        indexes = [models.Index(fields=["origin_type", "origin_id"], name="guide_origin")]

    def __str__(self) -> str:
        return f"Guia {self.number}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "status": self.status,
            "amount_brl": self.amount_brl,
            "quantity": self.quantity,
            "unit": self.unit,
            "origin_type": self.origin_type,
            "origin_id": self.origin_id,
            "due_on": self.due_on,
        }

    @property
    def is_unit_converted(self) -> bool:
        return self.unit != REAIS

    def get_unit_display(self) -> str:
        return unit_display(self.regime_id, self.unit)


def unit_display(regime_id: str, unit: str) -> str:
    """The unit as the regime names it ("R$", "UFM"); a unit it no longer declares shows its key, and says so."""
    from django.core.exceptions import ValidationError

    from apps.finance.valuation import unit_label

    try:
        return unit_label(regime_id, unit)
    except ValidationError:
        return f"{unit} (unidade não prevista pela lei)"


class PaymentQuerySet(MunicipalityScopedQuerySet["Payment"]):
    municipality_field: ClassVar[str] = "guide__municipality"


class Payment(models.Model):
    """The one payment of a guide (a guide cannot be paid twice: one-to-one)."""

    guide = models.OneToOneField(
        PaymentGuide, on_delete=models.PROTECT, related_name="payment", verbose_name="guia"
    )
    paid_on = models.DateField("pago em")
    amount_brl = models.DecimalField("valor pago (R$)", max_digits=12, decimal_places=2)
    method = models.CharField("forma de pagamento", max_length=16, choices=PaymentMethod.choices)
    reference = models.CharField("comprovante / identificador", max_length=100, blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="registrado por",
    )
    registered_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = PaymentQuerySet.as_manager()

    class Meta:
        verbose_name = "pagamento"
        verbose_name_plural = "pagamentos"
        constraints = [models.CheckConstraint(condition=POSITIVE, name="payment_amount_positive")]

    def __str__(self) -> str:
        return f"Pagamento da guia {self.guide.number}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "guide": self.guide.number,
            "paid_on": self.paid_on,
            "amount_brl": self.amount_brl,
            "method": self.method,
            "reference": self.reference,
        }


class RefundQuerySet(MunicipalityScopedQuerySet["Refund"]):
    municipality_field: ClassVar[str] = "payment__guide__municipality"


class Refund(models.Model):
    """Money the municipality owes back (a granted appeal, a fee charged in error)."""

    payment = models.ForeignKey(
        Payment, on_delete=models.PROTECT, related_name="refunds", verbose_name="pagamento"
    )
    amount_brl = models.DecimalField("valor (R$)", max_digits=12, decimal_places=2)
    due_on = models.DateField("restituir até")
    status = models.CharField(
        "situação", max_length=16, choices=RefundStatus.choices, default=RefundStatus.PENDING
    )
    reason = models.CharField("motivo", max_length=255)
    paid_on = models.DateField("paga em", null=True, blank=True)
    paid_reference = models.CharField("comprovante da restituição", max_length=100, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="criada por",
    )
    created_at = models.DateTimeField("criada em", auto_now_add=True)

    objects = RefundQuerySet.as_manager()

    class Meta:
        verbose_name = "restituição"
        verbose_name_plural = "restituições"
        ordering = ["status", "due_on", "id"]
        constraints = [models.CheckConstraint(condition=POSITIVE, name="refund_amount_positive")]

    def __str__(self) -> str:
        return f"Restituição de R$ {self.amount_brl} (guia {self.payment.guide.number})"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "guide": self.payment.guide.number,
            "amount_brl": self.amount_brl,
            "due_on": self.due_on,
            "status": self.status,
            "reason": self.reason,
            "paid_on": self.paid_on,
        }


# Charges at the PSP, payments the bank reported and the review queue (issue 30) live in their own module.
from apps.finance.pix_models import (  # noqa: E402
    PaymentReview,
    PixCharge,
    PixChargeTerms,
    PixReceived,
    TaxFeedEvent,
)

__all__ = [
    "FeeSchedule",
    "FinanceSettings",
    "Payment",
    "PaymentGuide",
    "PaymentReview",
    "PixCharge",
    "PixChargeTerms",
    "PixReceived",
    "Refund",
    "TaxFeedEvent",
]
