"""Request and response shapes of the platform API (they also document it in the OpenAPI schema)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.platforms.checks import MAX_BATCH
from apps.platforms.choices import ChangeKind, RosterImportState, SubstitutionState
from apps.public.choices import VerificationStatus


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(
        help_text="Código estável para máquinas (ex.: token_revoked, plate_invalid)."
    )
    message = serializers.CharField(help_text="Mensagem em português para pessoas.")


class TextOnlyField(serializers.CharField):
    """A string and nothing else: a CPF sent as a JSON number has already lost its leading zeros."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class CheckRequestSerializer(serializers.Serializer[Any]):
    drivers = serializers.ListField(
        child=TextOnlyField(allow_blank=True),
        required=False,
        min_length=1,
        max_length=MAX_BATCH,
        help_text="CPFs (com ou sem pontuação).",
    )
    vehicles = serializers.ListField(
        child=TextOnlyField(allow_blank=True),
        required=False,
        min_length=1,
        max_length=MAX_BATCH,
        help_text="Placas (antiga ou Mercosul).",
    )

    def validate(self, attrs: dict[str, list[str]]) -> dict[str, list[str]]:
        if not attrs.get("drivers") and not attrs.get("vehicles"):
            raise serializers.ValidationError("Envie ao menos um CPF em drivers ou uma placa em vehicles.")
        return attrs


class CheckItemSerializer(serializers.Serializer[Any]):
    """An item answered has every field but `error`; a malformed item (bad CPF or plate) has only `error`."""

    authorized = serializers.BooleanField(required=False)
    status = serializers.ChoiceField(choices=VerificationStatus.choices, required=False)
    valid_until = serializers.DateField(allow_null=True, required=False)
    suspended_until = serializers.DateField(allow_null=True, required=False)
    permit_number = serializers.CharField(allow_null=True, required=False)
    reason = serializers.CharField(
        allow_blank=True,
        required=False,
        help_text="Por que não está autorizado (documento vencido…), em português.",
    )
    articles = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Dispositivos legais do motivo."
    )
    error = ErrorSerializer(required=False, help_text="Só num item malformado; os demais campos faltam.")


class DriverCheckSerializer(CheckItemSerializer):
    cpf = serializers.CharField()


class VehicleCheckSerializer(CheckItemSerializer):
    plate = serializers.CharField()


class CheckResponseSerializer(serializers.Serializer[Any]):
    checked_on = serializers.DateField()
    drivers = DriverCheckSerializer(many=True)
    vehicles = VehicleCheckSerializer(many=True)


class SubstitutionRequestSerializer(serializers.Serializer[Any]):
    driver_cpf = serializers.CharField(min_length=1)
    substitute_plate = serializers.CharField(min_length=1)
    substitute_make_model = serializers.CharField(min_length=1, max_length=120)
    rental_company = serializers.CharField(min_length=1, max_length=160)
    reason = serializers.CharField(min_length=1, max_length=500)
    starts_on = serializers.DateField()
    expected_end_on = serializers.DateField(required=False, allow_null=True)


class SubstitutionResponseSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    state = serializers.ChoiceField(choices=SubstitutionState.choices)
    permit_number = serializers.CharField()
    substitute_plate = serializers.CharField()
    starts_on = serializers.DateField()
    expected_end_on = serializers.DateField(allow_null=True)
    secretariat_note = serializers.CharField()


class ChangeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ChangeKind.choices)
    effective_on = serializers.DateField()
    permit_number = serializers.CharField()
    plate = serializers.CharField()
    valid_until = serializers.DateField(allow_null=True)
    suspended_until = serializers.DateField(allow_null=True)
    reason = serializers.CharField(allow_blank=True, help_text="Motivo com o artigo (documento vencido…).")


class ChangeFeedSerializer(serializers.Serializer[Any]):
    results = ChangeSerializer(many=True)
    next_since = serializers.IntegerField(help_text="Passe como ?since= na próxima chamada.")
    has_more = serializers.BooleanField()


@extend_schema_field({"type": "string", "format": "binary"})
class BinaryFileField(serializers.FileField):
    """An uploaded file, documented as the bytes of a multipart part (not the URL a stored file reads as)."""


class RosterUploadSerializer(serializers.Serializer[Any]):
    file = BinaryFileField(help_text="CSV UTF-8: cpf, nome, placa, categoria_cnh[, validade_cnh].")


class RejectionSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    field = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class RosterImportSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    state = serializers.ChoiceField(choices=RosterImportState.choices)
    file_name = serializers.CharField()
    expected_rows = serializers.IntegerField(help_text="Linhas no arquivo (estimativa, sem o cabeçalho).")
    total_rows = serializers.IntegerField(help_text="Linhas lidas e conferidas até agora.")
    rejected_rows = serializers.IntegerField(help_text="Linhas recusadas até agora.")
    stored_rows = serializers.IntegerField(help_text="Linhas gravadas (só ao final, tudo ou nada).")
    finished = serializers.BooleanField(help_text="O envio terminou (imported, rejected ou failed).")
    rejections = RejectionSerializer(many=True)
