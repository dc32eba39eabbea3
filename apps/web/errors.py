"""Error pages in Portuguese. No stack trace ever reaches the user when DEBUG is off."""

from __future__ import annotations

import logging
import sys

from django.db import Error, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

logger = logging.getLogger("outorga.errors")

DATABASE_DOWN_ERRORS = (OperationalError, InterfaceError)


def database_unavailable_response(request: HttpRequest, error: Error) -> HttpResponse:
    logger.error("Database unavailable while serving %s %s: %s", request.method, request.path, error)
    # Rendered without the request context: context processors would query the database again.
    html = render_to_string("503.html", {"request_id": getattr(request, "request_id", "")})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = "30"
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "400.html", status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "403.html", status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Also reached when a middleware (sessions, auth) hits a dead database: answer 503 then."""
    error = sys.exc_info()[1]
    if isinstance(error, DATABASE_DOWN_ERRORS):
        return database_unavailable_response(request, error)
    # Standalone render: whatever broke may be the session or the database behind request.user.
    html = render_to_string("500.html", {"request_id": getattr(request, "request_id", "")})
    return HttpResponse(html, status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A stale form (e.g. the login page left open past the session) is the usual cause."""
    logger.warning("CSRF check failed for %s %s: %s", request.method, request.path, reason)
    return render(request, "403_csrf.html", status=403)
