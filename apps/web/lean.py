"""The lean path: anonymous reads of views that need no session go through a shorter middleware chain.

A public lookup answered to a parent at the school gate reads no session, shows no one-time message, posts no
form and never asks who the user is; yet every request used to pass through the session, CSRF, login, second
factor, idle-timeout, message and lockout middleware. A view marked ``@session_free`` is served, for a GET or
HEAD without a session cookie, by the middleware of ``settings.MIDDLEWARE`` minus
``settings.SESSION_FREE_SKIPPED_MIDDLEWARE``, with ``request.user`` the anonymous user. Everything else — rate
limits (in the view), security headers, CSP, locale, request ids, metrics, error pages — runs as before.

A request carrying a session cookie takes the full path: a signed-in member of staff browsing the public page
still sees their name in the header, and their idle timeout still counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import Resolver404, ResolverMatch, resolve
from django.utils.cache import patch_vary_headers
from django.utils.module_loading import import_string

V = TypeVar("V", bound=Callable[..., Any])
SAFE_METHODS = frozenset({"GET", "HEAD"})
THIS = "apps.web.lean.LeanPathMiddleware"
HOOKS = ("process_view", "process_exception", "process_template_response")


def session_free(view: V) -> V:
    """Mark a view whose answer does not depend on who asks: it reads no session and no user, shows no
    message and renders no POST form (no CSRF cookie is set on the lean path)."""
    view.session_free = True  # type: ignore[attr-defined]
    return view


class _LeanHandler(BaseHandler):
    """Django's own view handling (view hooks, exceptions, template responses) over a shorter chain."""

    def __init__(self, paths: list[str]) -> None:
        super().__init__()
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        handler = convert_exception_to_response(self._get_response)  # type: ignore[attr-defined]  # not in the stubs
        for path in reversed(paths):
            try:
                middleware = import_string(path)(handler)
            except MiddlewareNotUsed:
                continue
            if hasattr(middleware, "process_view"):
                self._view_middleware.insert(0, middleware.process_view)
            if hasattr(middleware, "process_template_response"):
                self._template_response_middleware.append(middleware.process_template_response)
            if hasattr(middleware, "process_exception"):
                self._exception_middleware.append(middleware.process_exception)
            handler = convert_exception_to_response(middleware)
        self._middleware_chain = handler

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        return request.resolver_match  # type: ignore[return-value]  # resolved by LeanPathMiddleware


class LeanPathMiddleware:
    """Place it before the session middleware; it serves lean requests itself and passes on the others."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        chain = list(settings.MIDDLEWARE)
        before, after = chain[: chain.index(THIS)], chain[chain.index(THIS) + 1 :]
        _refuse_hooks_before(before)
        skipped = set(settings.SESSION_FREE_SKIPPED_MIDDLEWARE)
        self.lean = _LeanHandler([path for path in after if path not in skipped])

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        match = self._lean_match(request)
        if match is None:
            return self.get_response(request)
        request.resolver_match = match
        request.user = AnonymousUser()
        response = cast(HttpResponseBase, self.lean._middleware_chain(request))  # a sync chain, built above
        # The full path says so too (the session is read there): the same URL answers differently with a cookie.
        patch_vary_headers(response, ("Cookie",))
        return response

    @staticmethod
    def _lean_match(request: HttpRequest) -> ResolverMatch | None:
        if request.method not in SAFE_METHODS or settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return None
        return match if getattr(match.func, "session_free", False) else None


def _refuse_hooks_before(paths: list[str]) -> None:
    """The lean chain starts after this middleware: a view hook of one before it would be silently lost."""
    for path in paths:
        if any(hasattr(import_string(path), hook) for hook in HOOKS):
            raise ImproperlyConfigured(f"{path} has view hooks: place {THIS} before it in MIDDLEWARE.")
