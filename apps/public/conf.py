"""The app's settings: Django settings first, then the environment, then a default (healthchecks-style).

PUBLIC_RATE_LIMIT          lookups one client may make per window (default 30)
PUBLIC_RATE_WINDOW         window length in seconds (default 60)
PUBLIC_RATE_LIMIT_CACHE    cache alias holding the counters and the used proof-of-work challenges (default
                           "default": the database cache every process shares, or Redis with REDIS_URL)
PUBLIC_COMPLAINT_RATE_LIMIT   complaints one client may send per window (default 5)
PUBLIC_COMPLAINT_RATE_WINDOW  that window in seconds (default 600)
PUBLIC_COMPLAINT_POW_BITS     leading zero bits the complaint form's proof of work needs (default 16: about
                              65,000 SHA-256 hashes, under a second on a desktop, a few on an old phone);
                              0 turns it off
PUBLIC_COMPLAINT_POW_TTL      seconds a challenge stays valid after the form is opened (default 3600)
PUBLIC_MUNICIPALITY_TTL    seconds each process keeps the towns, their contacts and their law configuration for
                           the public pages (default 60; 0 reads them on every request): apps.public.kept
PUBLIC_CLIENT_IP_META      request.META key with the client address (default REMOTE_ADDR; behind a proxy
                           that sets it, e.g. HTTP_X_REAL_IP)
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def _setting(name: str, default: str) -> str:
    value = getattr(settings, name, None)
    if value is None:
        value = os.environ.get(name) or default
    return str(value)


def _positive_int(name: str, default: int) -> int:
    raw = _setting(name, str(default))
    try:
        value = int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a positive integer, got {raw!r}") from exc
    if value < 1:
        raise ImproperlyConfigured(f"{name} must be a positive integer, got {raw!r}")
    return value


def rate_limit() -> int:
    return _positive_int("PUBLIC_RATE_LIMIT", 30)


def rate_window_seconds() -> int:
    return _positive_int("PUBLIC_RATE_WINDOW", 60)


def complaint_rate_limit() -> int:
    return _positive_int("PUBLIC_COMPLAINT_RATE_LIMIT", 5)


def complaint_rate_window_seconds() -> int:
    return _positive_int("PUBLIC_COMPLAINT_RATE_WINDOW", 600)


def complaint_pow_bits() -> int:
    bits = _non_negative_int("PUBLIC_COMPLAINT_POW_BITS", 16)
    if bits > 32:
        raise ImproperlyConfigured(f"PUBLIC_COMPLAINT_POW_BITS must be at most 32, got {bits}")
    return bits


def complaint_pow_ttl_seconds() -> int:
    return _positive_int("PUBLIC_COMPLAINT_POW_TTL", 3600)


def _non_negative_int(name: str, default: int) -> int:
    raw = _setting(name, str(default))
    if not raw.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number of seconds (0 or more), got {raw!r}")
    return int(raw)


def count_flush_seconds() -> int:
    return _non_negative_int("PUBLIC_COUNT_FLUSH_SECONDS", 10)


def municipality_ttl_seconds() -> int:
    return _non_negative_int("PUBLIC_MUNICIPALITY_TTL", 60)


def rate_limit_cache_alias() -> str:
    return _setting("PUBLIC_RATE_LIMIT_CACHE", "default")


def client_ip_meta_key() -> str:
    return _setting("PUBLIC_CLIENT_IP_META", "REMOTE_ADDR")
