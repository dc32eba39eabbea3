"""The public JSON endpoint: the same answer as the page, for apps and integrations. No login, rate-limited.

    GET /api/publica/v1/verificacao/?municipio=3533908&placa=ABC1D23
    GET /api/publica/v1/verificacao/?municipio=3533908&alvara=0001/2026
    GET /api/publica/v1/verificacao/?codigo=<token do QR>

Errors are {"error": {"code": ..., "message": ...}} with a stable code and a Portuguese message:
400 missing_parameter / invalid_plate / invalid_permit_number / invalid_token / unknown_municipality,
404 not_found (a QR code that does not exist or was replaced), 429 rate_limited (with Retry-After).
A plate or number with no permit is an answer, not an error: 200 with status "unknown".
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.utils.cache import patch_vary_headers
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.settings import api_settings

from apps.public import documents, lookups
from apps.public.schema import PublicErrorSerializer, VerificationAnswerSerializer
from apps.public.verification import InvalidQuery, unknown
from apps.web.lean import session_free
from outorga.routers import reads_from_replica

MISSING = "Informe placa e municipio, alvara e municipio, ou codigo."


def _error(status: int, code: str, message: str, **extra: object) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": message, **extra}}, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _lookup(request: HttpRequest) -> lookups.Outcome:
    params = request.GET
    if params.get("codigo"):
        return lookups.by_token(request, params["codigo"])
    if params.get("placa") and params.get("municipio"):
        return lookups.by_plate(request, params["municipio"], params["placa"])
    if params.get("alvara") and params.get("municipio"):
        return lookups.by_permit_number(request, params["municipio"], params["alvara"])
    raise InvalidQuery("missing_parameter", MISSING)


@extend_schema(
    summary="Consulta pública: o veículo pode transportar passageiros hoje? (sem login)",
    parameters=[
        OpenApiParameter("municipio", str, description="Código IBGE do município (com placa ou alvara)."),
        OpenApiParameter("placa", str, description="Placa antiga (ABC1234) ou Mercosul (ABC1D23)."),
        OpenApiParameter("alvara", str, description="Número da autorização, NNNN/AAAA."),
        OpenApiParameter("codigo", str, description="Código do QR impresso na autorização."),
    ],
    responses={
        200: VerificationAnswerSerializer,
        400: PublicErrorSerializer,
        404: PublicErrorSerializer,
        429: PublicErrorSerializer,
    },
    auth=[],
)
@session_free
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def verification(request: Request) -> JsonResponse:
    """Documented in the OpenAPI schema through DRF; the answer itself is the same plain JSON as before."""
    return _verification(request._request)


# The route (apps.public.urls). DRF's dispatch — its request wrapper, content negotiation, and authentication,
# permission and throttle hooks that have nothing to do here — was a tenth of a JSON lookup's CPU (issue 12). A
# GET whose answer DRF would give as it is (no Accept header, or */* or application/json; no ?format=) is
# answered directly, with the two headers DRF adds to it; anything else (HEAD, OPTIONS, other methods, an
# Accept header or format DRF may refuse with 406 or 404) still goes through DRF. tests/test_public_api_route.py
# compares the two paths.
DIRECT_ACCEPT = frozenset({"", "*/*", "application/json"})
DRF_ALLOW = ", ".join(verification.cls().allowed_methods)  # GET and OPTIONS, in DRF's order


@csrf_exempt
@session_free
def verification_route(request: HttpRequest) -> HttpResponseBase:
    if (
        request.method != "GET"
        or request.META.get("HTTP_ACCEPT", "") not in DIRECT_ACCEPT
        or api_settings.URL_FORMAT_OVERRIDE in request.GET
    ):
        return verification(request)
    response = _verification(request)
    response["Allow"] = DRF_ALLOW
    patch_vary_headers(response, ("Accept",))  # DRF's two renderers (JSON, browsable API) vary on it
    return response


# drf-spectacular documents the route from DRF's view class, as before
verification_route.cls = verification.cls  # type: ignore[attr-defined]
verification_route.initkwargs = verification.initkwargs  # type: ignore[attr-defined]


@reads_from_replica
def _verification(request: HttpRequest) -> JsonResponse:
    try:
        outcome = _lookup(request)
    except lookups.RateLimited as error:
        response = _error(429, "rate_limited", error.message_pt, retry_after=error.retry_after)
        response["Retry-After"] = str(error.retry_after)
        return response
    except InvalidQuery as error:
        return _error(400, error.code, error.message_pt)
    if outcome.query.via == "token" and not outcome.results:
        return _error(404, "not_found", "Código não encontrado: não existe ou foi substituído.")
    results = outcome.results or [unknown(outcome.checked_on, outcome.query.municipality)]
    body = {
        "status": outcome.status,
        "checked_on": outcome.checked_on.isoformat(),
        "results": [result.to_dict() for result in results],
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


# --- documents ------------------------------------------------------------------------------------------------
# GET  /api/publica/v1/documentos/?codigo=ABCD-EFGH-JKLM-NPQR[&municipio=IBGE]   what was issued under the code
# POST /api/publica/v1/documentos/  (multipart: arquivo=<PDF>[, municipio=IBGE])  is this file authentic?
# The answer is apps.public.documents.DocumentAnswer.to_dict(); errors as above (400 missing_parameter,
# file_too_large, unknown_municipality; 429 rate_limited).


@csrf_exempt
@session_free
def document_route(request: HttpRequest) -> HttpResponseBase:
    if request.method not in ("GET", "POST"):
        response = _error(405, "method_not_allowed", "Use GET com o código ou POST com o arquivo.")
        response["Allow"] = "GET, POST"
        return response
    ibge = (request.POST if request.method == "POST" else request.GET).get("municipio", "")
    try:
        if request.method == "POST" and "arquivo" in request.FILES:
            upload = request.FILES["arquivo"]
            result = documents.by_upload(request, upload, ibge)  # type: ignore[arg-type]
        elif request.GET.get("codigo"):
            result = documents.by_code(request, request.GET["codigo"], ibge)
        else:
            raise InvalidQuery(
                "missing_parameter", "Envie o arquivo (POST, campo arquivo) ou o codigo (GET)."
            )
    except documents.Limited as error:
        response = _error(429, "rate_limited", error.message_pt, retry_after=error.retry_after)
        response["Retry-After"] = str(error.retry_after)
        return response
    except InvalidQuery as error:
        return _error(400, error.code, error.message_pt)
    response = JsonResponse(result.to_dict(), status=200)
    response["Cache-Control"] = "no-store"
    return response
