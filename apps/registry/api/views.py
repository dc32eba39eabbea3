"""Registry API: reads through the tenancy gate; vehicle creation through the same service as the screen."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404
from django.utils import timezone
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from apps.registry import services
from apps.registry.api.serializers import (
    DocumentSerializer,
    DriverSerializer,
    OperatorSerializer,
    VehicleCreateSerializer,
    VehicleSerializer,
)
from apps.registry.models import Document, Driver, Operator, Vehicle
from apps.registry.selectors import operator_search
from apps.tenancy.access import municipality_for


class OperatorViewSet(viewsets.ReadOnlyModelViewSet[Operator]):
    """Operators of the user's municipalities; ?q= searches name, CPF, CNPJ or plate."""

    serializer_class = OperatorSerializer
    queryset = Operator.objects.none()

    def get_queryset(self) -> Any:
        operators = Operator.objects.for_user(self.request.user, "view").with_holder().order_by("pk")
        return operator_search(operators, self.request.query_params.get("q", ""))


class DriverViewSet(viewsets.ReadOnlyModelViewSet[Driver]):
    serializer_class = DriverSerializer
    queryset = Driver.objects.none()

    def get_queryset(self) -> Any:
        return Driver.objects.for_user(self.request.user, "view").select_related("person", "municipality")


class DocumentViewSet(viewsets.ReadOnlyModelViewSet[Document]):
    serializer_class = DocumentSerializer
    queryset = Document.objects.none()

    def get_queryset(self) -> Any:
        return Document.objects.for_user(self.request.user, "view").select_related("municipality")


class VehicleViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[Vehicle]):
    queryset = Vehicle.objects.none()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return VehicleCreateSerializer if self.action == "create" else VehicleSerializer

    def get_queryset(self) -> Any:
        return Vehicle.objects.for_user(self.request.user, "view").select_related("municipality")

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        municipality = municipality_for(
            request, data.pop("municipality_ibge"), model_label="registry.vehicle", action="change"
        )
        operator = data.pop("operator", None)
        if operator is not None and operator.municipality_id != municipality.pk:
            raise Http404("Registro não encontrado.")
        try:
            vehicle = services.vehicle_create(
                actor=request.user,
                municipality=municipality,
                operator=operator,
                as_of=timezone.localdate(),
                **data,
            )
        except ValidationError as refusal:
            return Response(refusal.message_dict, status=status.HTTP_400_BAD_REQUEST)
        return Response(VehicleSerializer(vehicle).data, status=status.HTTP_201_CREATED)
