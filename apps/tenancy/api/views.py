from __future__ import annotations

from rest_framework import viewsets

from apps.tenancy.api.serializers import MunicipalitySerializer
from apps.tenancy.models import Municipality, MunicipalityQuerySet


class MunicipalityViewSet(viewsets.ReadOnlyModelViewSet[Municipality]):
    """Municipalities where the signed-in user holds a role; others answer 404."""

    serializer_class = MunicipalitySerializer
    lookup_field = "ibge_code"
    queryset = Municipality.objects.none()  # schema generation only; real reads go through get_queryset

    def get_queryset(self) -> MunicipalityQuerySet:
        return Municipality.objects.for_user(self.request.user, "view")
