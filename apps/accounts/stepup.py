"""Step-up re-authentication, enforced in one place: the sensitive services themselves (ASVS 7.5).

A service that does something sensitive (issue a permit, judge, make a decision final, register a payment,
change roles, accounts or the law's configuration, clear a second factor, export a person's file) is marked
``@sensitive_service``. Called while a signed-in user's request is being served (by a form, the staff API or
an htmx fragment alike), it refuses with ``ReauthenticationRequired`` unless the session confirmed password and
second factor in the last REAUTHENTICATION_MINUTES. Whatever door a new route opens, it reaches the service,
and the service asks. Outside a request (a management command, a background sweep, a test calling the service
directly) there is nobody to ask and the service runs.

The view in front has already checked the role (it looks the object up among those the user may change), so a
user without the role gets their 404 or 403, never a prompt. ``StepUpMiddleware`` keeps the request in a
context variable and turns the refusal of a page or an htmx request into the prompt at
``/conta/confirmar-identidade/``; the staff API (DRF) answers it as 403 with a Portuguese ``detail``.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect
from rest_framework import exceptions

from apps.accounts.session import authentication_is_recent

F = TypeVar("F", bound=Callable[..., Any])

REAUTHENTICATION_MESSAGE = (
    "Esta é uma ação sensível: confirme sua senha e o código do aplicativo autenticador para continuar."
)
API_REAUTHENTICATION_MESSAGE = (
    "Ação sensível: confirme sua senha e o código do aplicativo autenticador em /conta/confirmar-identidade/ "
    "e repita o pedido."
)

# "module.function" of every service marked sensitive (tests/security/test_step_up.py enumerates the URL
# conf against it).
SENSITIVE_SERVICES: dict[str, Callable[..., Any]] = {}

_current_request: contextvars.ContextVar[HttpRequest | None] = contextvars.ContextVar(
    "outorga_step_up_request", default=None
)


class ReauthenticationRequired(exceptions.PermissionDenied):
    """A sensitive service was reached by a session whose last confirmation is too old."""

    default_detail = API_REAUTHENTICATION_MESSAGE
    default_code = "reauthentication_required"


def require_recent_authentication() -> None:
    """Refuse unless the request being served (if any, and if signed in) confirmed its identity recently."""
    request = _current_request.get()
    if request is None:
        return
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return  # an anonymous caller (a bank's or platform's own authentication) has no session to confirm
    if not authentication_is_recent(request):
        raise ReauthenticationRequired()


def sensitive_service(function: F) -> F:
    """Mark a service sensitive: it refuses a stale session (see the module's docstring)."""

    @wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        require_recent_authentication()
        return function(*args, **kwargs)

    SENSITIVE_SERVICES[f"{function.__module__}.{function.__qualname__}"] = guarded
    guarded.sensitive = True  # type: ignore[attr-defined]
    return guarded  # type: ignore[return-value]


def reauthentication_prompt(request: HttpRequest) -> HttpResponseBase:
    """Send the user to confirm their identity and bring them back (htmx: the whole page goes there)."""
    from apps.accounts.decorators import come_back_to

    messages.info(request, REAUTHENTICATION_MESSAGE)
    target = f"{reverse('reauthenticate')}?{urlencode({'next': come_back_to(request)})}"
    if request.headers.get("HX-Request") == "true":
        return HttpResponseClientRedirect(target)
    return redirect(target)


class StepUpMiddleware:
    """Keeps the request at hand for ``require_recent_authentication`` and answers its refusal on a page with
    the prompt. Comes after AuthenticationMiddleware, OTPMiddleware and MessageMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        token = _current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            _current_request.reset(token)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponseBase | None:
        if isinstance(exception, ReauthenticationRequired):
            return reauthentication_prompt(request)
        return None
