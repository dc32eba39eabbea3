"""Shapes of the public verification JSON, for the OpenAPI schema (apps.public.api writes the answer itself)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.public.choices import VerificationStatus


class PublicErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="missing_parameter, invalid_plate, not_found, rate_limited…")
    message = serializers.CharField(help_text="Mensagem em português.")
    retry_after = serializers.IntegerField(required=False, help_text="Segundos (só em rate_limited).")


class PublicErrorSerializer(serializers.Serializer[Any]):
    error = PublicErrorDetailSerializer()


class PublicVehicleSerializer(serializers.Serializer[Any]):
    make = serializers.CharField(allow_blank=True)
    model = serializers.CharField(allow_blank=True)
    plate = serializers.CharField(allow_blank=True)


class PublicResultSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=VerificationStatus.choices)
    status_label = serializers.CharField()
    may_carry_passengers = serializers.BooleanField()
    message = serializers.CharField()
    checked_on = serializers.DateField()
    municipality = serializers.CharField(allow_blank=True)
    municipality_ibge = serializers.CharField(allow_blank=True)
    service = serializers.CharField(allow_blank=True)
    permit_number = serializers.CharField(allow_blank=True)
    permit_kind = serializers.CharField(allow_blank=True)
    valid_from = serializers.DateField(allow_null=True)
    valid_until = serializers.DateField(allow_null=True)
    suspended_until = serializers.DateField(allow_null=True)
    vehicle = PublicVehicleSerializer()
    holder_name = serializers.CharField(allow_blank=True)
    reason = serializers.CharField(
        allow_blank=True, help_text="Por que não está regular (documento vencido…)"
    )
    articles = serializers.ListField(child=serializers.CharField(), help_text="Dispositivos legais do motivo")


class VerificationAnswerSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=VerificationStatus.choices)
    checked_on = serializers.DateField()
    results = PublicResultSerializer(many=True)
