from __future__ import annotations

from rest_framework import serializers

from apps.finance.choices import FeeKind, PaymentMethod
from apps.finance.models import Payment, PaymentGuide


class PaymentSerializer(serializers.ModelSerializer[Payment]):
    class Meta:
        model = Payment
        fields = ["paid_on", "amount_brl", "method", "reference", "registered_at"]
        read_only_fields = fields


class PaymentGuideSerializer(serializers.ModelSerializer[PaymentGuide]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)
    payment = PaymentSerializer(read_only=True, allow_null=True)
    # "" on a guide that is no fee (a fine's): the schema says so (issue 28).
    fee_kind = serializers.ChoiceField(choices=FeeKind.choices, allow_blank=True, read_only=True)

    class Meta:
        model = PaymentGuide
        fields = [
            "id",
            "municipality",
            "regime_id",
            "number",
            "payer_name",
            "description",
            "fee_kind",
            "origin_type",
            "origin_id",
            "quantity",
            "unit",
            "legal_basis",
            "amount_brl",
            "unit_value_used",
            "valuation_date",
            "issued_on",
            "due_on",
            "status",
            "pix_payload",
            "payment",
        ]
        read_only_fields = fields


class PaymentRegisterSerializer(serializers.Serializer[None]):
    """Input of POST /api/v1/finance/guides/{id}/payment/."""

    paid_on = serializers.DateField()
    amount_brl = serializers.DecimalField(max_digits=12, decimal_places=2)
    method = serializers.ChoiceField(choices=PaymentMethod.choices)
    reference = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
