"""Re-authentication before sensitive actions (ASVS 7.5: issuing or revoking permits, judging, payments,
roles, the law's configuration)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import wraps
from typing import Any, TypeVar, overload
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from apps.accounts.session import authentication_is_recent
from apps.accounts.stepup import REAUTHENTICATION_MESSAGE, reauthentication_prompt

View = TypeVar("View", bound=Callable[..., HttpResponseBase])

__all__ = ["REAUTHENTICATION_MESSAGE", "come_back_to", "recent_authentication_required"]


@overload
def recent_authentication_required(view: View, /) -> View: ...
@overload
def recent_authentication_required(*, actions: Collection[str]) -> Callable[[View], View]: ...
def recent_authentication_required(
    view: View | None = None, *, actions: Collection[str] | None = None
) -> View | Callable[[View], View]:
    """Ask for the confirmation *before* showing a sensitive action's form, after the view checked the role.

    The enforcement is the sensitive service's own (apps.accounts.stepup): this decorator only spares the user
    filling a form in vain. With a stale session the view runs anyway, so its role check answers first (404,
    403) and a sensitive service it reaches refuses (the prompt); a GET that would show the page (2xx) gets
    the prompt instead, and comes back to it. A view that carries it must reach a @sensitive_service
    (tests/security/test_step_up.py checks it).

    `actions` limits it to the URL's `action` argument being one of these (one view may serve harmless
    and sensitive actions, e.g. an application's "analisar" and "deferir").
    """

    def decorate(view_function: View) -> View:
        @wraps(view_function)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            sensitive = actions is None or kwargs.get("action") in actions
            if not sensitive or authentication_is_recent(request):
                return view_function(request, *args, **kwargs)
            response = view_function(request, *args, **kwargs)
            if request.method in ("GET", "HEAD") and 200 <= response.status_code < 300:
                return reauthentication_prompt(request)
            return response

        wrapper.prompts_reauthentication = True  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate(view) if view is not None else decorate


def come_back_to(request: HttpRequest) -> str:
    """A GET comes back to itself; a POST (its data cannot be replayed) to the page the form was on."""
    if request.method == "GET":
        return request.get_full_path()
    referer = request.headers.get("Referer", "")
    if referer and url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        parts = urlsplit(referer)
        return f"{parts.path}?{parts.query}" if parts.query else parts.path
    return reverse(settings.LOGIN_REDIRECT_URL)
