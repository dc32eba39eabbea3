"""The licensing API: the same gate (for_user) and the same services as the screens."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, TypedDict

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.actors import Actor
from apps.licensing import services
from apps.licensing.api.serializers import (
    ApplicationDetailSerializer,
    ApplicationSerializer,
    PermitSerializer,
    TransitionSerializer,
)
from apps.licensing.models import Application, Permit


def _filtered(rows: Any, params: Any, fields: dict[str, str]) -> Any:
    for param, column in fields.items():
        if params.get(param):
            rows = rows.filter(**{column: params[param]})
    return rows


class ApplicationViewSet(viewsets.ReadOnlyModelViewSet[Application]):
    """Applications of the municipalities where the user may read them; others answer 404.

    Filters: ?municipality=<IBGE>&state=&kind=&regime=&q=<name, CPF/CNPJ or plate>.
    """

    lookup_value_regex = r"[0-9]+"  # a non-numeric id is an unknown address (404), never a 500
    queryset = Application.objects.none()  # schema generation only; real reads go through get_queryset

    def get_serializer_class(self) -> Any:
        return ApplicationDetailSerializer if self.action == "retrieve" else ApplicationSerializer

    def get_queryset(self) -> QuerySet[Application]:
        params = self.request.query_params
        rows = Application.objects.for_user(self.request.user, "view").for_list()
        rows = _filtered(
            rows,
            params,
            {
                "municipality": "municipality__ibge_code",
                "state": "state",
                "kind": "kind",
                "regime": "regime_id",
            },
        )
        if params.get("q"):
            rows = rows.search(params["q"])
        if self.action == "retrieve":
            rows = rows.prefetch_related("events")
        ordered: QuerySet[Application] = rows.order_by("-year", "-sequence")
        return ordered

    @extend_schema(request=TransitionSerializer, responses={200: ApplicationDetailSerializer})
    @action(detail=True, methods=["post"])
    def transition(self, request: Request, pk: str | None = None) -> Response:
        """Move the application (analyst role); an illegal move answers 400 with a Portuguese message."""
        application = Application.objects.for_user(request.user, "change").filter(pk=str(pk)).first()
        if application is None:
            raise NotFound("Registro não encontrado.")
        data = TransitionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            _transition(data.validated_data, application, request.user)
        except DjangoValidationError as exc:
            body = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        application.refresh_from_db()
        return Response(ApplicationDetailSerializer(application).data)


class _Common(TypedDict):
    """The arguments every application transition takes."""

    application: Application
    actor: Actor
    as_of: dt.date


def _transition(data: dict[str, Any], application: Application, actor: Actor) -> Application:
    today, note = timezone.localdate(), data.get("note", "")
    base = _Common(application=application, actor=actor, as_of=today)
    calls: dict[str, Callable[[], Application]] = {
        "submit": lambda: services.application_submit(**base),
        "start_analysis": lambda: services.application_start_analysis(**base),
        "evaluate": lambda: services.application_evaluate(**base),
        "request_documents": lambda: services.application_request_documents(**base, note=note),
        "require_fee": lambda: services.application_require_fee(**base, fee_kind=data.get("fee_kind", "")),
        "require_inspection": lambda: services.application_require_inspection(**base),
        "approve": lambda: services.application_approve(**base, note=note),
        "deny": lambda: services.application_deny(**base, note=note),
        "archive": lambda: services.application_archive(**base, reason=note),
    }
    return calls[data["action"]]()


class PermitViewSet(viewsets.ReadOnlyModelViewSet[Permit]):
    """Permits of the municipalities where the user may read them. Filters: ?municipality=&state=&q=."""

    serializer_class = PermitSerializer
    queryset = Permit.objects.none()  # schema generation only; real reads go through get_queryset

    def get_queryset(self) -> QuerySet[Permit]:
        params = self.request.query_params
        rows = Permit.objects.for_user(self.request.user, "view").for_list()
        rows = _filtered(rows, params, {"municipality": "municipality__ibge_code", "state": "state"})
        if params.get("q"):
            rows = rows.search(params["q"])
        ordered: QuerySet[Permit] = rows.order_by("-year", "-sequence")
        return ordered
