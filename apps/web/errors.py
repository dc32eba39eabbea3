"""Error pages in Portuguese, and JSON errors for API clients. No stack trace ever reaches a user: with DEBUG
off never, with DEBUG on only on the machine itself (INTERNAL_IPS, see LocalOnlyExceptionReporter)."""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.conf import settings
from django.db import Error, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.debug import ExceptionReporter

logger = logging.getLogger("outorga.errors")

DATABASE_DOWN_ERRORS = (OperationalError, InterfaceError)
DATABASE_RETRY_AFTER = "30"
JSON_ERRORS = {
    400: ("bad_request", "Requisição inválida."),
    403: ("forbidden", "Acesso não permitido."),
    404: ("not_found", "Endereço ou registro não encontrado."),
    500: ("server_error", "Erro interno. A equipe foi avisada; tente de novo mais tarde."),
    503: (
        "database_unavailable",
        "Serviço temporariamente indisponível (banco de dados). Tente em instantes.",
    ),
}


def wants_json(request: HttpRequest) -> bool:
    """API clients: every /api/ path, and any client that asks for JSON rather than HTML."""
    if request.path.startswith("/api/"):
        return True
    accept = request.headers.get("Accept", "")
    return "application/json" in accept and "text/html" not in accept


def json_error(request: HttpRequest, status: int) -> JsonResponse:
    code, message = JSON_ERRORS[status]
    body = {"code": code, "message": message, "request_id": getattr(request, "request_id", "")}
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def database_unavailable_response(request: HttpRequest, error: Error) -> HttpResponse:
    logger.error("Database unavailable while serving %s %s: %s", request.method, request.path, error)
    if wants_json(request):
        response: HttpResponse = json_error(request, 503)
    else:
        # Rendered without the request context: context processors would query the database again.
        html = render_to_string("503.html", {"request_id": getattr(request, "request_id", "")})
        response = HttpResponse(html, status=503)
    response["Retry-After"] = DATABASE_RETRY_AFTER
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return json_error(request, 400)
    return render(request, "400.html", status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return json_error(request, 403)
    return render(request, "403.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if wants_json(request):
        return json_error(request, 404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Also reached when a middleware (sessions, auth) hits a dead database: answer 503 then."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_DOWN_ERRORS):
        return database_unavailable_response(request, error)
    if wants_json(request):
        return json_error(request, 500)
    # Standalone render: whatever broke may be the session or the database behind request.user.
    html = render_to_string("500.html", {"request_id": getattr(request, "request_id", "")})
    return HttpResponse(html, status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A stale form (e.g. the login page left open past the session) is the usual cause."""
    logger.warning("CSRF check failed for %s %s: %s", request.method, request.path, reason)
    return render(request, "403_csrf.html", status=403)


FORWARDING_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_FORWARDED")


def is_internal_client(request: HttpRequest | None) -> bool:
    """A client on this machine: its address is in INTERNAL_IPS and no proxy forwarded the request (behind a
    reverse proxy every request comes from loopback, whoever sent it)."""
    if request is None or any(request.META.get(header) for header in FORWARDING_HEADERS):
        return False
    return request.META.get("REMOTE_ADDR", "") in settings.INTERNAL_IPS


class LocalOnlyExceptionReporter(ExceptionReporter):
    """Django's debug traceback page (DEBUG on) only for INTERNAL_IPS; anyone else sees the plain 500 page.

    Reached for errors a middleware raises; a view's errors are answered earlier by LocalDebugOnlyMiddleware.
    """

    def get_traceback_html(self) -> Any:
        if is_internal_client(self.request):
            return super().get_traceback_html()
        return render_to_string("500.html", {"request_id": getattr(self.request, "request_id", "")})

    def get_traceback_text(self) -> Any:
        if is_internal_client(self.request):
            return super().get_traceback_text()
        return JSON_ERRORS[500][1]
