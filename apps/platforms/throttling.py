"""Requests per platform token, counted in the cache every server process shares (apps.public.ratelimit).

PLATFORM_RATE_LIMIT    requests one token may make per window (default 120; a batch check of 1,000 CPFs is one)
PLATFORM_RATE_WINDOW   window length in seconds (default 60)
Django settings first, then the environment. Over the limit the API answers 429 `rate_limited` with Retry-After.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from apps.platforms.models import PlatformCredential
from apps.public.ratelimit import Limit, count


def _positive_int(name: str, default: int) -> int:
    raw = getattr(settings, name, None) or os.environ.get(name) or default
    try:
        value = int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a positive integer, got {raw!r}") from exc
    if value < 1:
        raise ImproperlyConfigured(f"{name} must be a positive integer, got {raw!r}")
    return value


def platform_limit() -> Limit:
    return Limit(_positive_int("PLATFORM_RATE_LIMIT", 120), _positive_int("PLATFORM_RATE_WINDOW", 60))


class PlatformTokenThrottle(BaseThrottle):
    """One counter per credential: a platform's token for one town never slows its token for another."""

    retry_after: int | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        credential = request.auth
        if not isinstance(credential, PlatformCredential):
            return True
        decision = count("platform", str(credential.pk), platform_limit())
        self.retry_after = decision.retry_after
        return decision.allowed

    def wait(self) -> float | None:
        return self.retry_after
