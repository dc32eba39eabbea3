"""Rate limiting in fixed windows, counted in the cache every server process shares.

The counters live in Django's cache (settings.CACHES: the database cache by default, whose `incr` is atomic —
outorga.cache — or Redis), so a limit of 30 a minute is 30 a minute whether one process serves or ten.
A public client is its IP address, and the key is a keyed hash of it: the counters say how busy a client is,
never who it is, and expire with their window. The platform API counts per token (apps.platforms.throttling).
`time.time()` only cuts windows here; no legal date depends on it.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.http import HttpRequest

from apps.public import conf


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    retry_after: int


@dataclass(frozen=True)
class Limit:
    requests: int
    window_seconds: int


def keyed(scope: str, identity: str) -> str:
    digest = hmac.new(settings.SECRET_KEY.encode(), f"{scope}:{identity}".encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


def client_address(request: HttpRequest) -> str:
    return str(request.META.get(conf.client_ip_meta_key(), "") or "unknown").split(",")[0].strip()


def count(scope: str, identity: str, limit: Limit) -> RateDecision:
    """Count one request of `identity` in the current window of `scope` and say whether it is within `limit`."""
    window = limit.window_seconds
    now = time.time()
    window_index = int(now // window)
    key = f"rate:{scope}:{keyed(scope, identity)}:{window_index}"
    used = _incremented(caches[conf.rate_limit_cache_alias()], key, timeout=window + 1)
    retry_after = max(1, int((window_index + 1) * window - now))
    return RateDecision(allowed=used <= limit.requests, retry_after=retry_after)


def _incremented(cache: BaseCache, key: str, timeout: int) -> int:
    """The counter after this request. The project's caches count in one statement or round trip
    (outorga.cache: AtomicDatabaseCache.count, CountingRedisCache.count with REDIS_URL). Any other cache (Django's
    own Redis cache, say) is incremented first: the window's counter
    exists for every request but a client's first in the window. Only when there is nothing to increment is the
    counter created, by `add`, which a racing request of the same client may win: then this one increments
    theirs."""
    count = getattr(cache, "count", None)
    if count is not None:
        return int(count(key, timeout=timeout))
    try:
        return int(cache.incr(key))
    except ValueError:  # no counter yet in this window (or it just expired)
        pass
    if cache.add(key, 1, timeout=timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # created and expired in between: this request opens a fresh window
        cache.set(key, 1, timeout=timeout)
        return 1


def lookup_limit() -> Limit:
    return Limit(conf.rate_limit(), conf.rate_window_seconds())


def complaint_limit() -> Limit:
    return Limit(conf.complaint_rate_limit(), conf.complaint_rate_window_seconds())


def hit(request: HttpRequest, scope: str = "lookup") -> RateDecision:
    """Count one public request of this client (scope "lookup" or "complaint")."""
    limit = complaint_limit() if scope == "complaint" else lookup_limit()
    return count(scope, client_address(request), limit)
