"""Platform API: token per platform and municipality, JSON errors {code, message} with Portuguese text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler

from apps.platforms.api import serializers as s
from apps.platforms.authentication import PlatformTokenAuthentication
from apps.platforms.checks import check_drivers, check_vehicles
from apps.platforms.choices import ROSTER_FINISHED
from apps.platforms.errors import PlatformAPIError, not_found, wrong_municipality
from apps.platforms.models import PlatformCredential, RosterImport, SubstitutionReport
from apps.platforms.services import changes, roster, substitution_report
from apps.platforms.throttling import PlatformTokenThrottle

FEED_PAGE = 500
GENERIC_CODES = {
    exceptions.ParseError: ("body_malformed", "Corpo da requisição malformado (JSON inválido?)."),
    exceptions.UnsupportedMediaType: ("media_type_unsupported", "Tipo de conteúdo não aceito."),
    exceptions.MethodNotAllowed: ("method_not_allowed", "Método não permitido neste endereço."),
    exceptions.NotFound: ("not_found", "Registro não encontrado."),
}
RATE_LIMITED = "Muitas requisições com este token; aguarde {seconds} segundos (cabeçalho Retry-After)."


def platform_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every error leaves as {code, message}; validation errors add the fields that failed."""
    response = exception_handler(exc, context)
    if response is None or isinstance(exc, PlatformAPIError):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid_request", "message": "Requisição inválida.", "fields": exc.detail}
        return response
    if isinstance(exc, exceptions.Throttled):
        seconds = int(getattr(exc, "wait", None) or 1)
        response.data = {"code": "rate_limited", "message": RATE_LIMITED.format(seconds=seconds)}
        return response
    code, message = next(
        ((c, m) for kind, (c, m) in GENERIC_CODES.items() if isinstance(exc, kind)),
        ("error", str(getattr(exc, "detail", "Erro."))),
    )
    response.data = {"code": code, "message": message}
    return response


class SameMunicipality(BasePermission):
    """The token's municipality must be the one in the URL; otherwise 403 with a code, never the data."""

    def has_permission(self, request: Request, view: Any) -> bool:
        credential = request.auth
        if not isinstance(credential, PlatformCredential):
            return False
        if credential.municipality.ibge_code != view.kwargs.get("ibge_code"):
            raise wrong_municipality()
        return True


class PlatformView(APIView):
    authentication_classes = [PlatformTokenAuthentication]
    permission_classes = [SameMunicipality]
    throttle_classes = [PlatformTokenThrottle]
    parser_classes = [JSONParser]

    def get_exception_handler(self) -> Callable[..., Response | None]:
        return platform_exception_handler

    @property
    def credential(self) -> PlatformCredential:
        assert isinstance(self.request.auth, PlatformCredential)
        return self.request.auth


ERRORS = {401: s.ErrorSerializer, 403: s.ErrorSerializer, 429: s.ErrorSerializer}


class CheckView(PlatformView):
    @extend_schema(
        summary="Consulta em lote: CPFs e placas autorizados hoje, e até quando",
        request=s.CheckRequestSerializer,
        responses={200: s.CheckResponseSerializer, 400: s.ErrorSerializer, **ERRORS},
    )
    def post(self, request: Request, ibge_code: str) -> Response:
        body = s.CheckRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        today, municipality = timezone.localdate(), self.credential.municipality
        return Response(
            {
                "checked_on": today.isoformat(),
                "drivers": [
                    a.to_dict()
                    for a in check_drivers(municipality, body.validated_data.get("drivers", []), as_of=today)
                ],
                "vehicles": [
                    a.to_dict()
                    for a in check_vehicles(
                        municipality, body.validated_data.get("vehicles", []), as_of=today
                    )
                ],
            }
        )


def substitution_to_dict(report: SubstitutionReport) -> dict[str, Any]:
    return {
        "id": report.pk,
        "state": report.state,
        "permit_number": report.permit.number,
        "substitute_plate": report.substitute_plate,
        "starts_on": report.starts_on.isoformat(),
        "expected_end_on": report.expected_end_on.isoformat() if report.expected_end_on else None,
        "secretariat_note": report.handled_note,
    }


class SubstitutionCreateView(PlatformView):
    @extend_schema(
        summary="Comunicar substituição temporária por veículo locado (Patrocínio, art. 11-A)",
        request=s.SubstitutionRequestSerializer,
        responses={
            201: s.SubstitutionResponseSerializer,
            400: s.ErrorSerializer,
            422: s.ErrorSerializer,
            **ERRORS,
        },
    )
    def post(self, request: Request, ibge_code: str) -> Response:
        body = s.SubstitutionRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        report = substitution_report(
            credential=self.credential, as_of=timezone.localdate(), **body.validated_data
        )
        return Response(substitution_to_dict(report), status=status.HTTP_201_CREATED)


class SubstitutionDetailView(PlatformView):
    @extend_schema(
        summary="Situação de uma comunicação de substituição",
        responses={200: s.SubstitutionResponseSerializer, 404: s.ErrorSerializer, **ERRORS},
    )
    def get(self, request: Request, ibge_code: str, pk: int) -> Response:
        report = (
            SubstitutionReport.objects.select_related("permit")
            .filter(pk=pk, platform=self.credential.platform, municipality=self.credential.municipality)
            .first()
        )
        if report is None:
            raise not_found()
        return Response(substitution_to_dict(report))


class ChangeFeedView(PlatformView):
    @extend_schema(
        summary="Mudanças de situação de autorizações (suspensão, cassação, vencimento…) desde um cursor",
        parameters=[
            OpenApiParameter(
                "since", {"type": "integer", "minimum": 0}, description="Último id recebido (0 no início)."
            ),
            OpenApiParameter(
                "limit", {"type": "integer", "minimum": 0}, description=f"Até {FEED_PAGE} por página."
            ),
        ],
        responses={200: s.ChangeFeedSerializer, 400: s.ErrorSerializer, **ERRORS},
    )
    def get(self, request: Request, ibge_code: str) -> Response:
        since, limit = (
            _int_param(request, "since", 0),
            min(_int_param(request, "limit", FEED_PAGE), FEED_PAGE),
        )
        municipality = self.credential.municipality
        changes.capture(municipality, as_of=timezone.localdate())
        rows = changes.feed(municipality, since=since, limit=limit + 1)
        page = rows[:limit]
        return Response(
            {
                "results": [changes.change_to_dict(c) for c in page],
                "next_since": page[-1].pk if page else since,
                "has_more": len(rows) > limit,
            }
        )


def _int_param(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name, "")
    if raw == "":
        return default
    if not raw.isdigit():
        raise PlatformAPIError("parameter_invalid", f"O parâmetro {name} deve ser um número inteiro ≥ 0.")
    return int(raw)


def import_to_dict(record: RosterImport) -> dict[str, Any]:
    return {
        "id": record.pk,
        "state": record.state,
        "file_name": record.file_name,
        "expected_rows": record.expected_rows,
        "total_rows": record.total_rows,
        "rejected_rows": record.rejected_rows,
        "stored_rows": record.stored_rows,
        "finished": record.state in ROSTER_FINISHED,
        "rejections": record.rejections,
    }


class RosterUploadView(PlatformView):
    parser_classes = [MultiPartParser]

    @extend_schema(
        summary="Enviar o cadastro de motoristas (CSV): entra na fila; acompanhe em roster/<id>/",
        request={"multipart/form-data": s.RosterUploadSerializer},
        responses={202: s.RosterImportSerializer, 400: s.ErrorSerializer, 413: s.ErrorSerializer, **ERRORS},
    )
    def post(self, request: Request, ibge_code: str) -> Response:
        upload = request.FILES.get("file")
        if upload is None:
            raise PlatformAPIError("file_missing", "Envie o arquivo CSV no campo “file”.")
        if upload.size is not None and upload.size > roster.MAX_UPLOAD_BYTES:
            raise PlatformAPIError(
                "file_too_large", roster.TOO_LARGE, status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
            )
        credential = self.credential
        record = roster.roster_upload_accept(
            actor=None,
            platform=credential.platform,
            municipality=credential.municipality,
            file_name=upload.name or "cadastro.csv",
            content=upload.read(),
        )
        response = Response(import_to_dict(record), status=status.HTTP_202_ACCEPTED)
        response["Location"] = f"{request.path}{record.pk}/"
        return response


class RosterImportView(PlatformView):
    @extend_schema(
        summary="Resultado de um envio de cadastro (JSON; ?report=csv para o relatório em CSV)",
        responses={200: s.RosterImportSerializer, 404: s.ErrorSerializer, **ERRORS},
    )
    def get(self, request: Request, ibge_code: str, pk: int) -> Response | HttpResponse:
        record = RosterImport.objects.filter(
            pk=pk, platform=self.credential.platform, municipality=self.credential.municipality
        ).first()
        if record is None:
            raise not_found()
        if request.query_params.get("report") == "csv":
            response = HttpResponse(roster.report_csv(record), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="cadastro-{record.pk}-recusas.csv"'
            return response
        return Response(import_to_dict(record))
