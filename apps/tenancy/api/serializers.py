from __future__ import annotations

from rest_framework import serializers

from apps.tenancy.models import Municipality


class MunicipalitySerializer(serializers.ModelSerializer[Municipality]):
    class Meta:
        model = Municipality
        fields = ["ibge_code", "name", "uf", "slug", "regimes"]
        read_only_fields = fields
