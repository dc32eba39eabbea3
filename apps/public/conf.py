"""The app's settings: Django settings first, then the environment, then a default (healthchecks-style).

PUBLIC_RATE_LIMIT          lookups one client may make per window (default 30)
PUBLIC_RATE_WINDOW         window length in seconds (default 60)
PUBLIC_RATE_LIMIT_CACHE    cache alias holding the counters (default "default"); with several server
                           processes point it at a shared cache (DatabaseCache works on SQLite too)
PUBLIC_CLIENT_IP_META      request.META key with the client address (default REMOTE_ADDR; behind a proxy
                           that sets it, e.g. HTTP_X_REAL_IP)
OPEN_DATA_DIR              where `export_open_data` writes its files (default <VAR_DIR>/open-data)
"""

from __future__ import annotations

import os
from pathlib import Path

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


def open_data_dir() -> Path:
    default = Path(getattr(settings, "VAR_DIR", settings.BASE_DIR / "var")) / "open-data"
    return Path(_setting("OPEN_DATA_DIR", str(default)))
