"""Re-authentication before sensitive actions (ASVS 7.5: issuing or revoking permits, judging, payments,
roles, the law's configuration)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import wraps
from typing import Any, TypeVar, overload
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.http import HttpResponseClientRedirect

from apps.accounts.session import authentication_is_recent

View = TypeVar("View", bound=Callable[..., HttpResponseBase])

REAUTHENTICATION_MESSAGE = (
    "Esta é uma ação sensível: confirme sua senha e o código do aplicativo autenticador para continuar."
)


@overload
def recent_authentication_required(view: View, /) -> View: ...
@overload
def recent_authentication_required(*, actions: Collection[str]) -> Callable[[View], View]: ...
def recent_authentication_required(
    view: View | None = None, *, actions: Collection[str] | None = None
) -> View | Callable[[View], View]:
    """Let the view run only if the user confirmed password and second factor in the last REAUTHENTICATION_MINUTES;
    otherwise send them to confirm it and bring them back. Put it right under @login_required.

    `actions` limits it to the URL's `action` argument being one of these (one view may serve harmless
    and sensitive actions, e.g. an application's "analisar" and "deferir").
    """

    def decorate(view_function: View) -> View:
        @wraps(view_function)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            sensitive = actions is None or kwargs.get("action") in actions
            if not sensitive or authentication_is_recent(request):
                return view_function(request, *args, **kwargs)
            messages.info(request, REAUTHENTICATION_MESSAGE)
            target = f"{reverse('reauthenticate')}?{urlencode({'next': _come_back_to(request)})}"
            if request.headers.get("HX-Request") == "true":
                return HttpResponseClientRedirect(target)
            return redirect(target)

        return wrapper  # type: ignore[return-value]

    return decorate(view) if view is not None else decorate


def _come_back_to(request: HttpRequest) -> str:
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
