from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect

SESSION_EXPIRED_MESSAGE = "Sua sessão expirou. Entre novamente para continuar."


class SessionExpiryMiddleware:
    """Tells the user their session expired instead of silently showing the login page.

    A browser that still sends a session cookie the server no longer knows (expired or cleared)
    gets a one-time message; Django deletes the stale cookie on this same response. An HTMX
    request sent to the login page is told to navigate the whole page there, so the login form
    never lands inside a card. Must come after AuthenticationMiddleware and MessageMiddleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._session_expired(request):
            messages.warning(request, SESSION_EXPIRED_MESSAGE)
        response = self.get_response(request)
        if request.headers.get("HX-Request") == "true" and self._redirects_to_login(response):
            return HttpResponseClientRedirect(response["Location"])
        return response

    @staticmethod
    def _session_expired(request: HttpRequest) -> bool:
        # An empty value is a deleted cookie (logout), not an expired session.
        if not request.COOKIES.get(settings.SESSION_COOKIE_NAME) or request.user.is_authenticated:
            return False
        # Loading an unknown or expired key leaves the store without a key.
        return request.session.session_key is None

    @staticmethod
    def _redirects_to_login(response: HttpResponse) -> bool:
        return response.status_code == 302 and response["Location"].startswith(
            resolve_url(settings.LOGIN_URL)
        )
