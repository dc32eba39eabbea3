"""Test-only URLconf: views that fail the way production can fail."""

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


def database_down(request: HttpRequest) -> HttpResponse:
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


def bug(request: HttpRequest) -> HttpResponse:
    raise ZeroDivisionError("a programming error")


class DatabaseDownAPI(APIView):
    """A JSON API view (DRF) whose query fails because the database is unreachable."""

    permission_classes = [AllowAny]

    def get(self, request: Request) -> Response:
        raise OperationalError("server closed the connection unexpectedly")


urlpatterns = [
    path("banco-fora/", database_down),
    path("erro/", bug),
    path("api/v1/banco-fora/", DatabaseDownAPI.as_view()),
    path("api/v1/erro/", bug),
    path("", include("outorga.urls")),
]

handler400 = "apps.web.errors.bad_request"
handler403 = "apps.web.errors.permission_denied"
handler404 = "apps.web.errors.page_not_found"
handler500 = "apps.web.errors.server_error"
