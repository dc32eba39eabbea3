"""With REDIS_URL the rate limits count in a real Redis (127.0.0.1:6379), shared by every server process.

Skipped cleanly when no Redis answers there. Each test counts for a client address of its own and deletes its
counters afterwards, so runs (and other helpers sharing the Redis) never see each other's counts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import Client, RequestFactory

from apps.public import ratelimit
from apps.tenancy.models import Municipality
from outorga.cache import COUNT_SHA, CountingRedisCache

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]
REDIS_URL = os.environ.get("OUTORGA_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
REDIS_CACHE = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
# What REDIS_URL configures: the same cache, counting in one round trip (outorga.cache).
COUNTING_CACHE = {"BACKEND": "outorga.cache.CountingRedisCache", "LOCATION": REDIS_URL}
BACKENDS = pytest.mark.parametrize("backend", [REDIS_CACHE, COUNTING_CACHE], ids=["django", "counting"])


@pytest.fixture
def redis_client() -> Any:
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip(f"no Redis at {REDIS_URL}")
    return client


@pytest.fixture
def client_address(redis_client: Any) -> Iterator[str]:
    """A client address no other run uses; its counters are deleted afterwards (found by their keyed hash)."""
    address = f"203.0.113.{uuid.uuid4().hex[:8]}"
    yield address
    for scope in ("lookup", "complaint"):
        for key in redis_client.scan_iter(match=f"*rate:{scope}:{ratelimit.keyed(scope, address)}:*"):
            redis_client.delete(key)


@BACKENDS
def test_two_workers_sharing_redis_let_exactly_the_limit_through(
    settings: Any, client_address: str, backend: dict[str, str]
) -> None:
    settings.CACHES = django_settings.CACHES | {"worker_a": backend, "worker_b": dict(backend)}
    settings.PUBLIC_RATE_LIMIT, settings.PUBLIC_RATE_WINDOW = 30, 10**9  # one window for the whole test
    request = RequestFactory().get("/consulta/", REMOTE_ADDR=client_address)
    allowed = 0
    for turn in range(60):
        settings.PUBLIC_RATE_LIMIT_CACHE = "worker_a" if turn % 2 else "worker_b"
        allowed += ratelimit.hit(request).allowed
    assert allowed == 30


@BACKENDS
def test_the_public_lookup_answers_429_with_retry_after_once_redis_counts_the_limit(
    settings: Any, client_address: str, olimpia: Municipality, backend: dict[str, str]
) -> None:
    settings.CACHES = django_settings.CACHES | {"redis": backend}
    settings.PUBLIC_RATE_LIMIT_CACHE = "redis"
    settings.PUBLIC_RATE_LIMIT, settings.PUBLIC_RATE_WINDOW = 3, 10**9
    client = Client(REMOTE_ADDR=client_address)
    query = {"municipio": olimpia.ibge_code, "q": "ABC1D23"}
    statuses = [client.get("/consulta/", query).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    limited = client.get("/consulta/", query)
    assert limited.status_code == 429 and int(limited["Retry-After"]) > 0


def test_a_counted_window_expires_with_its_timeout_and_the_next_request_opens_a_fresh_one(
    settings: Any, redis_client: Any, client_address: str
) -> None:
    settings.CACHES = django_settings.CACHES | {"counting": COUNTING_CACHE}
    cache = caches["counting"]
    assert isinstance(cache, CountingRedisCache)
    key = f"rate:lookup:{ratelimit.keyed('lookup', client_address)}:0"
    assert [cache.count(key, timeout=60) for _ in range(3)] == [1, 2, 3]
    stored = cache.make_and_validate_key(key)
    assert 0 < redis_client.ttl(stored) <= 60  # set by the window's first request, kept by the next ones
    assert cache.get(key) == 3  # an ordinary cache value too
    redis_client.pexpire(stored, 1)
    time.sleep(0.05)
    assert cache.count(key, timeout=60) == 1 and 0 < redis_client.ttl(stored) <= 60


def test_a_redis_that_forgot_the_counting_script_counts_on(
    settings: Any, redis_client: Any, client_address: str
) -> None:
    """After a restart (or SCRIPT FLUSH) EVALSHA answers NOSCRIPT: the count falls back to EVAL, which reloads it."""
    settings.CACHES = django_settings.CACHES | {"counting": COUNTING_CACHE}
    cache = caches["counting"]
    assert isinstance(cache, CountingRedisCache)
    key = f"rate:lookup:{ratelimit.keyed('lookup', client_address)}:0"
    redis_client.script_flush()
    assert cache.count(key, timeout=60) == 1
    assert redis_client.script_exists(COUNT_SHA) == [True]
    assert cache.count(key, timeout=60) == 2


def test_redis_url_makes_three_real_processes_share_one_count(client_address: str) -> None:
    """The deployment's way: REDIS_URL in the environment of each process, nothing else."""
    env = {key: value for key, value in os.environ.items() if key not in {"DEBUG", "REDIS_URL"}}
    env |= {"REDIS_URL": REDIS_URL, "PUBLIC_RATE_LIMIT": "30", "PUBLIC_RATE_WINDOW": str(10**9)}
    script = (
        "from django.conf import settings\n"
        "from django.test import RequestFactory\n"
        "from apps.public import ratelimit\n"
        "assert settings.CACHES['default']['BACKEND'] == 'outorga.cache.CountingRedisCache', settings.CACHES\n"
        f"request = RequestFactory().get('/', REMOTE_ADDR={client_address!r})\n"
        "print(sum(ratelimit.hit(request).allowed for _ in range(20)))\n"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", script],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    allowed = [int(worker.communicate(timeout=180)[0].strip().splitlines()[-1]) for worker in workers]
    assert sum(allowed) == 30, allowed
