"""The enforcement API: the same gate (for_user) and the same services as the screens."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from apps.enforcement import services
from apps.enforcement.api.serializers import (
    CaseCreateSerializer,
    CaseDetailSerializer,
    CaseSerializer,
    NoticeCreateSerializer,
    NoticeSerializer,
    ReceiptSerializer,
)
from apps.enforcement.models import InfractionCase, Notice
from apps.enforcement.services import notices
from apps.registry.models import Driver
from apps.tenancy.models import Municipality


def _refusal(exc: DjangoValidationError) -> Response:
    body = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


DRIVER_UNKNOWN = "Condutor cadastrado: não há condutor com este código em {municipality}."


class CaseViewSet(viewsets.ReadOnlyModelViewSet[InfractionCase]):
    """Autos de infração of the municipalities where the user may read them; others answer 404.

    Filters: ?municipality=<IBGE>&state=&mine=1. POST creates an auto (agent role); POST …/notices/ sends a notice.
    """

    lookup_value_regex = r"[0-9]+"  # a non-numeric id is an unknown address (404), never a 500

    queryset = InfractionCase.objects.none()  # schema generation only; real reads go through get_queryset

    def get_serializer_class(self) -> Any:
        return CaseDetailSerializer if self.action == "retrieve" else CaseSerializer

    def get_queryset(self) -> QuerySet[InfractionCase]:
        params = self.request.query_params
        rows = InfractionCase.objects.for_user(self.request.user, "view").select_related("municipality")
        if params.get("municipality"):
            rows = rows.filter(municipality__ibge_code=params["municipality"])
        if params.get("state"):
            rows = rows.filter(state=params["state"])
        if params.get("mine"):
            rows = rows.of_agent(self.request.user)
        if self.action == "retrieve":
            rows = rows.prefetch_related("notices", "events")
        ordered: QuerySet[InfractionCase] = rows.order_by("-year", "-sequence")
        return ordered

    @extend_schema(request=CaseCreateSerializer, responses={201: CaseDetailSerializer})
    def create(self, request: Request) -> Response:
        data = CaseCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        municipality = (
            Municipality.objects.for_user(request.user, "view")
            .filter(ibge_code=values.pop("municipality"))
            .first()
        )
        if municipality is None:
            raise NotFound("Município não encontrado.")
        regime_id = values.pop("regime_id", "") or None
        driver_id = values.pop("driver")
        values["driver"] = (
            Driver.objects.filter(municipality=municipality, pk=driver_id).first() if driver_id else None
        )
        if driver_id and values["driver"] is None:  # another town's driver, or none: refuse, never drop it
            return Response(
                {"driver": [DRIVER_UNKNOWN.format(municipality=municipality)]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            case = services.case_open(
                municipality=municipality,
                actor=request.user,
                details=services.AutoDetails(**values),
                recorded_at=timezone.now(),
                regime_id=regime_id,
            )
        except DjangoValidationError as exc:
            return _refusal(exc)
        return Response(CaseDetailSerializer(case).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=NoticeCreateSerializer, responses={201: NoticeSerializer})
    @action(detail=True, methods=["post"])
    def notices(self, request: Request, pk: str | None = None) -> Response:
        case = self.get_queryset().filter(pk=str(pk)).first()
        if case is None:
            raise NotFound("Registro não encontrado.")
        data = NoticeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            notice = notices.notice_send(
                case=case, actor=request.user, as_of=timezone.localdate(), **data.validated_data
            )
        except DjangoValidationError as exc:
            return _refusal(exc)
        return Response(NoticeSerializer(notice).data, status=status.HTTP_201_CREATED)


class NoticeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Notice]):
    """Notices of the cases the user may read; POST …/receipt/ records the AR or electronic return."""

    lookup_value_regex = r"[0-9]+"  # a non-numeric id is an unknown address (404), never a 500

    serializer_class = NoticeSerializer
    queryset = Notice.objects.none()

    def get_queryset(self) -> QuerySet[Notice]:
        rows = Notice.objects.for_user(self.request.user, "view")
        case = self.request.query_params.get("case", "")
        if case:
            rows = rows.filter(case_id=case) if case.isdigit() else rows.none()
        ordered: QuerySet[Notice] = rows.order_by("-sent_on", "-pk")
        return ordered

    @extend_schema(request=ReceiptSerializer, responses={200: NoticeSerializer})
    @action(detail=True, methods=["post"])
    def receipt(self, request: Request, pk: str | None = None) -> Response:
        notice = self.get_queryset().filter(pk=str(pk)).first()
        if notice is None:
            raise NotFound("Registro não encontrado.")
        data = ReceiptSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            notice = notices.notice_record_receipt(
                notice=notice, actor=request.user, as_of=timezone.localdate(), **data.validated_data
            )
        except DjangoValidationError as exc:
            return _refusal(exc)
        return Response(NoticeSerializer(notice).data)
