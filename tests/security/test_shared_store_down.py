"""Redis down is a degradation, never a 500 (issue 28, item 2): the public lookup, the public verification API,
the platform API and every other use of the shared store go on with per-process limits, the degradation is
logged and counted, and readiness shows it. "Down" is a Redis URL pointing at a closed port."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from apps.ops import counters
from apps.platforms.tests.conftest import issued, platform, post_json, url  # noqa: F401  (fixtures)
from apps.tenancy.models import Municipality
from outorga.cache import shared_store_reset, shared_store_state

pytestmark = pytest.mark.django_db
CLOSED = "redis://127.0.0.1:1/0"


@pytest.fixture(autouse=True)
def redis_down(settings: Any) -> Iterator[None]:
    settings.CACHES = {
        "default": {
            "BACKEND": "outorga.cache.CountingRedisCache",
            "LOCATION": CLOSED,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    settings.SHARED_STORE_RETRY_SECONDS = 0  # try Redis on every call: each one must degrade, not fail
    shared_store_reset()
    yield
    shared_store_reset()


def _errors_counted() -> float:
    with counters._lock:
        return sum(
            v for (name, _), v in counters._pending.items() if name == "outorga_shared_store_errors_total"
        )


def test_the_public_lookup_answers_and_limits_per_process(
    settings: Any, olimpia: Municipality, caplog: pytest.LogCaptureFixture
) -> None:
    settings.PUBLIC_RATE_LIMIT, settings.PUBLIC_RATE_WINDOW = 3, 10**9
    before = _errors_counted()
    client = Client(REMOTE_ADDR="203.0.113.7")
    with caplog.at_level(logging.WARNING, logger="outorga.cache"):
        statuses = [
            client.get("/consulta/", {"municipio": olimpia.ibge_code, "q": "ABC1D23"}).status_code
            for _ in range(4)
        ]
    assert statuses == [200, 200, 200, 429]
    assert any(
        "Redis" in record.getMessage() and "por processo" in record.getMessage() for record in caplog.records
    )
    assert _errors_counted() >= before + 4
    assert shared_store_state().degraded_since is not None


def test_the_public_verification_api_answers(olimpia: Municipality) -> None:
    response = Client(REMOTE_ADDR="203.0.113.8").get(
        "/api/publica/v1/verificacao/", {"municipio": olimpia.ibge_code, "q": "ABC1D23"}
    )
    assert response.status_code < 500
    assert response["Content-Type"].startswith("application/json")


def test_the_platform_api_answers(issued: Any, patrocinio: Municipality) -> None:  # noqa: F811
    api = Client(HTTP_AUTHORIZATION=f"Bearer {issued.token}")
    response = post_json(api, url(patrocinio.ibge_code, "checks/"), {"vehicles": ["ABC1D23"]})
    assert response.status_code == 200


def test_every_cache_operation_falls_back_to_this_process() -> None:
    cache = caches["default"]
    cache.set("kept", [1, 2], 60)
    assert cache.get("kept") == [1, 2]
    assert cache.add("once", 1, 60) is True and cache.add("once", 1, 60) is False
    assert cache.incr("once") == 2
    cache.delete("kept")
    assert cache.get("kept", "gone") == "gone"
    assert cache.get_many(["once"]) == {"once": 2}


def test_readiness_shows_the_degradation_to_a_monitor_only(settings: Any) -> None:
    settings.METRICS_TOKEN = "monitor-token"
    anonymous = Client().get("/saude/pronto/")
    assert anonymous.status_code == 200 and anonymous.json() == {"status": "degraded"}
    monitor = Client().get("/saude/pronto/", HTTP_AUTHORIZATION="Bearer monitor-token").json()
    assert monitor["checks"]["shared_store"] == "degradado" and monitor["checks"]["database"] == "ok"


def test_redis_back_ends_the_degradation(settings: Any, caplog: pytest.LogCaptureFixture) -> None:
    redis = pytest.importorskip("redis")
    caches["default"].get("anything")
    assert shared_store_state().degraded_since is not None
    try:
        redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_connect_timeout=1).ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    settings.CACHES = {
        "default": {"BACKEND": "outorga.cache.CountingRedisCache", "LOCATION": "redis://127.0.0.1:6379/0"}
    }
    with caplog.at_level(logging.WARNING, logger="outorga.cache"):
        caches["default"].get("outorga-test-shared-store-back")
    assert shared_store_state().degraded_since is None
    assert any("de volta" in record.getMessage() for record in caplog.records)
