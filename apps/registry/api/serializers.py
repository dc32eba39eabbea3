from __future__ import annotations

from typing import Any

from rest_framework import serializers

from apps.registry.identifiers import mask_cpf
from apps.registry.models import Document, Driver, Operator, Vehicle


class OperatorSerializer(serializers.ModelSerializer[Operator]):
    """A PF holder's CPF is masked: the full number is personal data, shown (and audited) on the operator page."""

    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)
    holder_name = serializers.CharField(read_only=True)
    holder_document = serializers.SerializerMethodField()

    def get_holder_document(self, operator: Operator) -> str:
        if operator.person is not None:
            return mask_cpf(operator.person.cpf)
        return operator.company.cnpj_display if operator.company is not None else ""

    class Meta:
        model = Operator
        fields = [
            "id",
            "municipality",
            "regime_id",
            "kind",
            "holder_name",
            "holder_document",
            "status",
            "registered_on",
        ]
        read_only_fields = fields


class VehicleSerializer(serializers.ModelSerializer[Vehicle]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)

    class Meta:
        model = Vehicle
        fields = [
            "id",
            "municipality",
            "operator",
            "plate",
            "renavam",
            "make",
            "model",
            "manufacture_year",
            "model_year",
            "seats",
            "doors",
            "air_conditioning",
            "accessibility",
            "registration_municipality_ibge",
            "registration_municipality_name",
            "category",
            "tachograph_ok",
            "last_maintenance",
            "owner_name",
            "owner_document",
            "ownership_kind",
            "ownership_since",
            "ownership_registered",
            "owner_signature_notarized",
        ]
        read_only_fields = ["id", "municipality"]


class VehicleCreateSerializer(VehicleSerializer):
    municipality_ibge = serializers.CharField(write_only=True)
    plate = serializers.CharField(max_length=8)

    class Meta(VehicleSerializer.Meta):
        fields = [*VehicleSerializer.Meta.fields, "municipality_ibge"]
        validators: list[Any] = []  # uniqueness is refused by the service, in Portuguese


class DriverSerializer(serializers.ModelSerializer[Driver]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)
    name = serializers.CharField(source="person.name", read_only=True)

    class Meta:
        model = Driver
        fields = [
            "id",
            "municipality",
            "operator",
            "name",
            "role",
            "cnh_category",
            "cnh_ear",
            "cnh_expiry",
            "vehicle",
            "active",
        ]
        read_only_fields = fields


class DocumentSerializer(serializers.ModelSerializer[Document]):
    municipality = serializers.CharField(source="municipality.ibge_code", read_only=True)

    class Meta:
        model = Document
        fields = [
            "id",
            "municipality",
            "kind",
            "person",
            "company",
            "vehicle",
            "operator",
            "issue_date",
            "expiry_date",
            "valid_until",
            "status",
            "content_type",
            "size_bytes",
            "sha256",
            "decision",
            "uploaded_at",
        ]
        read_only_fields = fields
