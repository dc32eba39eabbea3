from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from apps.web.errors import (
    DATABASE_DOWN_ERRORS,
    bad_request,
    database_unavailable_response,
    is_internal_client,
    page_not_found,
    permission_denied,
    server_error,
)

logger = logging.getLogger("outorga.errors")


class DatabaseUnavailableMiddleware:
    """Turns "cannot reach the database" raised by a view into a Portuguese 503 page (JSON for API clients).

    Works with DEBUG on too (Django's debug page would otherwise show the trace). Failures in
    earlier middleware (session, auth) reach handler500, which applies the same rule.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_DOWN_ERRORS):
            return database_unavailable_response(request, exception)
        return None


class SecurityHeadersMiddleware:
    """Permissions-Policy on every answer; `Cache-Control: no-store` on every answer to a logged-in user
    (staff pages, portal pages, their PDFs and downloads: all may carry personal data), so neither the
    browser nor a shared proxy keeps a copy."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            response["Cache-Control"] = "no-store"
        return response


class LocalDebugOnlyMiddleware:
    """With DEBUG on, nobody sees Django's English debug page for a refusal (404, 403, 400): every user, on
    this machine too, gets the Portuguese page production serves — a refusal is an answer, not a bug. A client
    outside INTERNAL_IPS never sees a traceback either; the developer on loopback still does for a 500.
    Without DEBUG it does nothing (the handlers in outorga.urls answer).

    It is the innermost middleware, so a view's exception reaches it before Django's debug handler.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.DEBUG:
            try:
                resolve(request.path_info, getattr(request, "urlconf", None))
            except Resolver404 as exc:
                return page_not_found(request, exc)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not settings.DEBUG:
            return None
        if isinstance(exception, Http404):
            return page_not_found(request, exception)
        if isinstance(exception, PermissionDenied):
            return permission_denied(request, exception)
        if isinstance(exception, BadRequest | SuspiciousOperation):
            return bad_request(request, exception)
        if is_internal_client(request):
            return None
        if not isinstance(exception, DATABASE_DOWN_ERRORS):
            logger.error("Error serving %s %s", request.method, request.path, exc_info=exception)
        return server_error(request)
