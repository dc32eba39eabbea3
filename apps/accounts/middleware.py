from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse

SESSION_EXPIRED_MESSAGE = "Sua sessão expirou. Entre novamente para continuar."


class SessionExpiryMiddleware:
    """Tells the user their session expired instead of silently showing the login page.

    A browser that still sends a session cookie the server no longer knows (expired or cleared)
    gets a one-time message; Django deletes the stale cookie on this same response. Must come
    after AuthenticationMiddleware and MessageMiddleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._session_expired(request):
            messages.warning(request, SESSION_EXPIRED_MESSAGE)
        return self.get_response(request)

    @staticmethod
    def _session_expired(request: HttpRequest) -> bool:
        # An empty value is a deleted cookie (logout), not an expired session.
        if not request.COOKIES.get(settings.SESSION_COOKIE_NAME) or request.user.is_authenticated:
            return False
        # Loading an unknown or expired key leaves the store without a key.
        return request.session.session_key is None
