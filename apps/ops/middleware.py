"""Request metrics and the access log: count and latency by route name and status, one log line per request.

Labels are route names (``public:search``), never paths: a path can carry a plate or a QR token, and one
series per distinct path would grow without bound.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse

from apps.ops.counters import Key, counter_add_keys, counters_flush_if_due, series_key

logger = logging.getLogger("outorga.request")
# Seconds; the upper bounds of the latency histogram (Prometheus "le"), +Inf implied by the count.
BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
REQUESTS = "outorga_http_requests_total"
DURATION = "outorga_http_request_duration_seconds"
# Probes that load balancers and Prometheus call every few seconds: counted, but not logged at INFO.
QUIET_ROUTES = frozenset({"ops:live", "ops:ready", "ops:metrics"})


def route_name(request: HttpRequest) -> str:
    match = request.resolver_match
    return match.view_name if match is not None and match.view_name else "unmatched"


def request_observe(*, route: str, method: str, status: int, seconds: float) -> None:
    histogram = _histogram_keys(route)
    # Every bucket gets an amount (0 when not reached), so every bound has a row, as Prometheus expects.
    amounts = [
        (key, 1.0 if seconds <= bound else 0.0) for key, bound in zip(histogram.buckets, BUCKETS, strict=True)
    ]
    amounts += [
        (_count_key(route, method, status), 1.0),
        (histogram.inf, 1.0),
        (histogram.count, 1.0),
        (histogram.total, seconds),
    ]
    counter_add_keys(amounts)


@dataclass(frozen=True)
class HistogramKeys:
    buckets: tuple[Key, ...]
    inf: Key
    total: Key
    count: Key


# Label text is built once per route (and status): the per-request cost is then a few dictionary additions.
@functools.lru_cache(maxsize=2048)
def _histogram_keys(route: str) -> HistogramKeys:
    buckets = tuple(
        series_key(f"{DURATION}_bucket", {"route": route, "le": f"{bound:g}"}) for bound in BUCKETS
    )
    return HistogramKeys(
        buckets=buckets,
        inf=series_key(f"{DURATION}_bucket", {"route": route, "le": "+Inf"}),
        total=series_key(f"{DURATION}_sum", {"route": route}),
        count=series_key(f"{DURATION}_count", {"route": route}),
    )


@functools.lru_cache(maxsize=8192)
def _count_key(route: str, method: str, status: int) -> Key:
    return series_key(REQUESTS, {"route": route, "method": method, "status": str(status)})


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        seconds = time.perf_counter() - started
        route, method = route_name(request), request.method or "GET"
        method = method if method in KNOWN_METHODS else "OTHER"
        request_observe(route=route, method=method, status=response.status_code, seconds=seconds)
        level = logging.DEBUG if route in QUIET_ROUTES else logging.INFO
        logger.log(
            level,
            "%s %s %s %.0f ms",
            method,
            route,
            response.status_code,
            seconds * 1000,
            extra={
                "method": method,
                "route": route,
                "status": response.status_code,
                "duration_ms": round(seconds * 1000, 1),
            },
        )
        counters_flush_if_due()
        return response


KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
