"""Per-client rate limiting of public lookups, in fixed windows, on Django's cache.

The client is its IP address, and the cache key is a keyed hash of it: the counters say how busy a client is,
never who it is, and expire with their window. `time.time()` only cuts windows here; no legal date depends on it.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

from apps.public import conf


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    retry_after: int


def client_key(request: HttpRequest, scope: str) -> str:
    address = str(request.META.get(conf.client_ip_meta_key(), "") or "unknown").split(",")[0].strip()
    digest = hmac.new(settings.SECRET_KEY.encode(), f"{scope}:{address}".encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def hit(request: HttpRequest, scope: str = "lookup") -> RateDecision:
    """Count one request of this client in the current window and say whether it is within the limit."""
    window = conf.rate_window_seconds()
    now = time.time()
    window_index = int(now // window)
    key = f"public-rate:{client_key(request, scope)}:{window_index}"
    cache = caches[conf.rate_limit_cache_alias()]
    cache.add(key, 0, timeout=window + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # the key expired between add and incr: this request opens a fresh window
        cache.set(key, 1, timeout=window + 1)
        used = 1
    retry_after = max(1, int((window_index + 1) * window - now))
    return RateDecision(allowed=used <= conf.rate_limit(), retry_after=retry_after)
