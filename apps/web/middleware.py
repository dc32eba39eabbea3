from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from apps.web.errors import DATABASE_DOWN_ERRORS, database_unavailable_response


class DatabaseUnavailableMiddleware:
    """Turns "cannot reach the database" raised by a view into a Portuguese 503 page.

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
