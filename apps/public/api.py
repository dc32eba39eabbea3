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
from django.views.decorators.http import require_GET

from apps.public import lookups
from apps.public.verification import InvalidQuery, unknown

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


@require_GET
def verification(request: HttpRequest) -> JsonResponse:
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
    body = {"status": outcome.status, "checked_on": outcome.checked_on.isoformat(),
            "results": [result.to_dict() for result in results]}  # fmt: skip
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response
