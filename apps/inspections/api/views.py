"""The inspections API: the same gate (for_user) and the same services as the screens.

GET  /api/v1/inspections/inspections/?municipality=<IBGE>&result=&vehicle=   list (readers)
POST /api/v1/inspections/inspections/                                       schedule (schedulers)
POST /api/v1/inspections/inspections/<id>/result/                           record the result (inspectors)
GET  /api/v1/inspections/inspections/calendar/?municipality=<IBGE>&year=&month=   due and overdue vehicles
A vehicle, application or inspection outside the user's municipalities answers 404; a refusal answers 400
with the Portuguese message keyed by the field.
"""

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

from apps.accounts.models import User
from apps.inspections import calendar as cal
from apps.inspections import services
from apps.inspections.api.serializers import (
    CalendarQuerySerializer,
    CalendarSerializer,
    InspectionSerializer,
    ResultSerializer,
    ScheduleSerializer,
)
from apps.inspections.models import Inspection
from apps.licensing.models import Application
from apps.registry.models import Vehicle
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import user_can

FILTERS = {
    "municipality": "municipality__ibge_code",
    "result": "result",
    "vehicle": "vehicle_id",
    "kind": "kind",
}
NUMERIC_FILTERS = {"vehicle"}


def _refusal(exc: DjangoValidationError) -> Response:
    body = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _scoped(queryset: Any, user: Any, action_name: str, pk: Any) -> Any:
    row = queryset.for_user(user, action_name).filter(pk=pk).first() if pk is not None else None
    if row is None:
        raise NotFound("Registro não encontrado.")
    return row


INSPECTOR_UNKNOWN = "Vistoriador: não há servidor com este código em {municipality}."


def _inspector(user_id: int, vehicle: Vehicle) -> User | None:
    """Only the vehicle's municipality's staff: another town's user id is "not found", never named."""
    return (
        User.objects.filter(pk=user_id, memberships__municipality_id=vehicle.municipality_id)
        .distinct()
        .first()
    )


class InspectionViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[Inspection]):
    """Inspections of the municipalities where the user may read them; others answer 404."""

    lookup_value_regex = r"[0-9]+"  # a non-numeric id is an unknown address (404), never a 500

    queryset = Inspection.objects.none()  # schema generation only; real reads go through get_queryset
    serializer_class = InspectionSerializer

    def get_queryset(self) -> QuerySet[Inspection]:
        rows = Inspection.objects.for_user(self.request.user, "view").for_list()
        for param, column in FILTERS.items():
            value = self.request.query_params.get(param)
            if value and param in NUMERIC_FILTERS and not value.isdigit():
                return rows.none()
            if value:
                rows = rows.filter(**{column: value})
        return rows.order_by("scheduled_for", "pk")

    @extend_schema(request=ScheduleSerializer, responses={201: InspectionSerializer})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = ScheduleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        vehicle = _scoped(Vehicle.objects, request.user, "view", values["vehicle"])
        if not user_can(request.user, vehicle.municipality_id, "inspections.inspection", "schedule"):
            raise NotFound("Registro não encontrado.")
        application = (
            _scoped(Application.objects, request.user, "view", values["application"])
            if values.get("application")
            else None
        )
        inspector = _inspector(values.get("inspector"), vehicle) if values.get("inspector") else None
        if values.get("inspector") and inspector is None:
            return Response(
                {"inspector": [INSPECTOR_UNKNOWN.format(municipality=vehicle.municipality)]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            row = services.inspection_schedule(
                actor=request.user,
                vehicle=vehicle,
                scheduled_for=values["scheduled_for"],
                kind=values.get("kind"),
                application=application,
                inspector=inspector,
                as_of=timezone.localdate(),
            )
        except DjangoValidationError as exc:
            return _refusal(exc)
        return Response(InspectionSerializer(row).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ResultSerializer, responses={200: InspectionSerializer})
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str | None = None) -> Response:
        """Record every checklist item (inspector role); anything missing or in the future answers 400."""
        inspection = _scoped(Inspection.objects, request.user, "change", pk)
        data = ResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        items = {
            item["code"]: services.ItemResult(ok=item["ok"], note=item["note"]) for item in values["items"]
        }
        try:
            row = services.inspection_record_result(
                actor=request.user,
                inspection=inspection,
                performed_on=values["performed_on"],
                items=items,
                notes=values["notes"],
                as_of=timezone.localdate(),
            )
        except DjangoValidationError as exc:
            return _refusal(exc)
        return Response(InspectionSerializer(row).data)

    @extend_schema(parameters=[CalendarQuerySerializer], responses={200: CalendarSerializer(many=True)})
    @action(detail=False, methods=["get"], pagination_class=None)  # a plain array, as the schema says
    def calendar(self, request: Request) -> Response:
        """Per regime of the municipality: the month's vehicles due/overdue and the year's counts per month."""
        query = CalendarQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        municipality = Municipality.objects.filter(ibge_code=values["municipality"]).first()
        if municipality is None or not user_can(
            request.user, municipality.pk, "inspections.inspection", "view"
        ):
            raise NotFound("Registro não encontrado.")
        today = timezone.localdate()
        sections = [
            _calendar_section(municipality, regime_id, request.user, today, values["year"], values["month"])
            for regime_id in municipality.regimes or []
        ]
        return Response(CalendarSerializer(sections, many=True).data)


def _calendar_section(
    municipality: Municipality, regime_id: str, user: Any, today: Any, year: int, month: int
) -> dict[str, Any]:
    if not cal.answers_calendar(regime_id):
        return {"regime_id": regime_id, "available": False, "vehicles": [], "months": []}
    ctx = cal.CalendarContext(
        municipality, regime_id, today, cal.vehicles_in_service(municipality, regime_id, user)
    )
    rows = [
        {
            "vehicle": due.vehicle.pk,
            "plate": due.vehicle.plate,
            "permit": due.permit_number,
            "status": due.status,
            "message": due.message,
            "basis": due.basis,
            "last_inspection": due.last_inspection,
        }
        for due in cal.month_schedule(ctx, year, month)
    ]
    months = [
        {"month": c.month, "due": c.due, "done": c.done, "overdue": c.overdue}
        for c in cal.year_picture(ctx, year)
    ]
    return {"regime_id": regime_id, "available": True, "vehicles": rows, "months": months}
