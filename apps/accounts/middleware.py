from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, resolve_url
from django.urls import Resolver404, resolve, reverse
from django_htmx.http import HttpResponseClientRedirect

from apps.accounts.receivers import LOGOUT_REASON_ATTRIBUTE
from apps.accounts.session import LAST_SEEN_KEY, second_factor_step

SESSION_EXPIRED_MESSAGE = "Sua sessão expirou. Entre novamente para continuar."
SECOND_FACTOR_API_MESSAGE = (
    "Confirme o segundo fator de autenticação na página de entrada antes de usar a API."
)


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


def _login_url_for(request: HttpRequest) -> str:
    portal_login = reverse("portal:login")
    return portal_login if request.path.startswith("/portal/") else resolve_url(settings.LOGIN_URL)


def _navigate(request: HttpRequest, url: str) -> HttpResponse:
    """A redirect, or for an HTMX request a whole-page navigation (never a login form inside a card)."""
    if request.headers.get("HX-Request") == "true":
        return HttpResponseClientRedirect(url)
    return redirect(url)


def idle_timeout_message() -> str:
    minutes = settings.SESSION_IDLE_TIMEOUT_MINUTES
    return (
        f"Sua sessão foi encerrada depois de {minutes} minutos sem atividade. Entre novamente para continuar."
    )


class IdleTimeoutMiddleware:
    """Signs a user out after SESSION_IDLE_TIMEOUT_MINUTES without a request (ASVS 7.3.1).

    The last-seen time is written at most once a minute, so an active user does not cost a session write on
    every request; the timeout is therefore exact to the minute. The absolute limit is SESSION_COOKIE_AGE.
    """

    REFRESH_SECONDS = 60

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.user.is_authenticated:
            now = time.time()
            last_seen = request.session.get(LAST_SEEN_KEY)
            if (
                isinstance(last_seen, int | float)
                and now - last_seen > settings.SESSION_IDLE_TIMEOUT_MINUTES * 60
            ):
                return self._sign_out(request)
            if not isinstance(last_seen, int | float) or now - last_seen >= self.REFRESH_SECONDS:
                request.session[LAST_SEEN_KEY] = now
        return self.get_response(request)

    @staticmethod
    def _sign_out(request: HttpRequest) -> HttpResponse:
        setattr(request, LOGOUT_REASON_ATTRIBUTE, "idle")
        logout(request)
        if request.path.startswith("/api/"):  # an API client gets JSON, not the login page
            return JsonResponse({"detail": idle_timeout_message()}, status=401)
        messages.warning(request, idle_timeout_message())
        next_path = request.get_full_path() if request.method == "GET" else ""
        url = _login_url_for(request)
        return _navigate(request, f"{url}?{urlencode({'next': next_path})}" if next_path else url)


class SecondFactorRequiredMiddleware:
    """After the password, a user who owes a second factor can only reach the verification or enrolment pages
    (and sign out). Staff without an authenticator are sent to enrol one; nothing else works until they do.
    Must come after OTPMiddleware and MessageMiddleware.
    """

    OPEN_URL_NAMES = frozenset(
        {"login", "logout", "second_factor_verify", "second_factor_enrol", "portal:login"}
    )

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        step = second_factor_step(request.user)
        if step is None or self._open(request):
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": SECOND_FACTOR_API_MESSAGE}, status=403)
        page = "second_factor_verify" if step == "verify" else "second_factor_enrol"
        next_path = request.get_full_path() if request.method == "GET" else ""
        url = reverse(page)
        return _navigate(request, f"{url}?{urlencode({'next': next_path})}" if next_path else url)

    def _open(self, request: HttpRequest) -> bool:
        if request.path.startswith(
            settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/static/"
        ):
            return True
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return False
        return match.view_name in self.OPEN_URL_NAMES
