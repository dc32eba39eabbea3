"""The due-process API: the same gate (for_user) and the same services as the screens."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.dueprocess import active_debt, services
from apps.dueprocess.api.serializers import (
    AppealCreateSerializer,
    AppealSerializer,
    JudgeSerializer,
    SanctionSerializer,
)
from apps.dueprocess.choices import Instance
from apps.dueprocess.models import Appeal, Sanction
from apps.dueprocess.permissions import CHARGE, EXPORT, JUDGE_FIRST, JUDGE_SECOND
from apps.dueprocess.services import fines
from apps.enforcement.models import InfractionCase
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import user_can

JUDGING = {Instance.FIRST: JUDGE_FIRST, Instance.SECOND: JUDGE_SECOND}


def _refusal(exc: DjangoValidationError) -> Response:
    body = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


class AppealViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet[Appeal]):
    """Defences and appeals. Filters: ?municipality=<IBGE>&pending=1&instance=first|second (queue order).
    POST files one (protocol staff); POST …/judge/ judges it (only the instance's judges; others get 404)."""

    queryset = Appeal.objects.none()
    serializer_class = AppealSerializer

    def get_queryset(self) -> QuerySet[Appeal]:
        params = self.request.query_params
        rows = Appeal.objects.for_user(self.request.user, "view").select_related("case", "judgment")
        if params.get("municipality"):
            rows = rows.filter(case__municipality__ibge_code=params["municipality"])
        if params.get("instance") in Instance.values:
            rows = rows.filter(instance=params["instance"])
        if params.get("pending"):
            rows = rows.pending()
        return rows.order_by("judgment_deadline", "filed_on", "pk")

    @extend_schema(request=AppealCreateSerializer, responses=AppealSerializer)
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = AppealCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        case = InfractionCase.objects.for_user(request.user, "view").filter(pk=values["case"]).first()
        if case is None:
            raise NotFound("Auto não encontrado.")
        try:
            appeal = services.appeal_file(
                case=case,
                instance=values["instance"],
                filed_on=values["filed_on"],
                text=values["text"],
                actor=request.user,
                as_of=timezone.localdate(),
                appellant_name=values["appellant_name"],
            )
        except DjangoValidationError as exc:
            return _refusal(exc)
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=JudgeSerializer, responses=AppealSerializer)
    @action(detail=True, methods=["post"])
    def judge(self, request: Request, pk: str | None = None) -> Response:
        appeal = self.get_object()
        if not user_can(
            request.user, appeal.case.municipality_id, "dueprocess.appeal", JUDGING[Instance(appeal.instance)]
        ):
            raise NotFound("Recurso não encontrado.")
        data = JudgeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            services.appeal_judge(
                appeal=appeal, actor=request.user, as_of=timezone.localdate(), **data.validated_data
            )
        except DjangoValidationError as exc:
            return _refusal(exc)
        appeal.refresh_from_db()
        return Response(AppealSerializer(Appeal.objects.select_related("judgment").get(pk=appeal.pk)).data)


class SanctionViewSet(viewsets.ReadOnlyModelViewSet[Sanction]):
    """Penalties with the engine's Decision (replayable). Filter: ?municipality=<IBGE>&state=.
    POST …/fine/ issues the fine's payment guide (finance role)."""

    queryset = Sanction.objects.none()
    serializer_class = SanctionSerializer

    def get_queryset(self) -> QuerySet[Sanction]:
        params = self.request.query_params
        rows = Sanction.objects.for_user(self.request.user, "view").select_related("case", "guide")
        if params.get("municipality"):
            rows = rows.filter(case__municipality__ibge_code=params["municipality"])
        if params.get("state"):
            rows = rows.filter(state=params["state"])
        return rows.order_by("-condemned_on", "-pk")

    @extend_schema(request=None, responses=SanctionSerializer)
    @action(detail=True, methods=["post"])
    def fine(self, request: Request, pk: str | None = None) -> Response:
        sanction = self.get_object()
        if not user_can(request.user, sanction.case.municipality_id, "dueprocess.sanction", CHARGE):
            raise NotFound("Penalidade não encontrada.")
        try:
            fines.fine_issue(sanction=sanction, actor=request.user, as_of=timezone.localdate())
        except DjangoValidationError as exc:
            return _refusal(exc)
        return Response(SanctionSerializer(Sanction.objects.get(pk=sanction.pk)).data)


class ActiveDebtView(APIView):
    """Unpaid final fines past due for dívida ativa: ?municipality=<IBGE> (required), &formato=csv for CSV."""

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response | HttpResponse:
        municipality = Municipality.objects.filter(
            ibge_code=request.query_params.get("municipality", "")
        ).first()
        if municipality is None or not user_can(request.user, municipality.pk, "dueprocess.sanction", EXPORT):
            raise NotFound("Município não encontrado.")
        today = timezone.localdate()
        rows = active_debt.unpaid_final_fines(municipality, today)
        if request.query_params.get("formato") == "csv":
            return HttpResponse(active_debt.to_csv(rows), content_type="text/csv; charset=utf-8")
        return HttpResponse(active_debt.to_json(rows, municipality, today), content_type="application/json")
