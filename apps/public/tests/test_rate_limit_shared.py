"""30 a minute is 30 a minute with any number of server processes: the counters live in the shared cache.

Two cache clients built from the project's own cache configuration stand for two workers (each process has
its own client object); a second test starts three real processes against one SQLite file at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import RequestFactory

from apps.public import ratelimit

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def test_the_configured_cache_is_shared_by_every_process() -> None:
    backend = django_settings.CACHES["default"]["BACKEND"]
    assert backend in {"outorga.cache.AtomicDatabaseCache", "django.core.cache.backends.redis.RedisCache"}


def test_two_workers_sharing_the_store_let_exactly_the_limit_through(settings: Any) -> None:
    shared = django_settings.CACHES["default"]
    settings.CACHES = {"default": shared, "worker_a": dict(shared), "worker_b": dict(shared)}
    settings.PUBLIC_RATE_LIMIT, settings.PUBLIC_RATE_WINDOW = 30, 10**9  # one window for the whole test
    request = RequestFactory().get("/consulta/", REMOTE_ADDR="198.51.100.20")
    allowed = 0
    for turn in range(60):
        settings.PUBLIC_RATE_LIMIT_CACHE = "worker_a" if turn % 2 else "worker_b"
        allowed += ratelimit.hit(request).allowed
    assert allowed == 30


def test_the_limit_holds_across_three_real_processes_counting_at_once(tmp_path: Path) -> None:
    env = {
        key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "DEBUG", "REDIS_URL"}
    }
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'shared.sqlite3'}",
        "OUTORGA_VAR_DIR": str(tmp_path),
        "PUBLIC_RATE_LIMIT": "30",
        "PUBLIC_RATE_WINDOW": str(10**9),
    }
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "createcachetable"], cwd=ROOT, env=env, check=True, timeout=120)
    script = (
        "from django.test import RequestFactory\n"
        "from apps.public import ratelimit\n"
        "request = RequestFactory().get('/', REMOTE_ADDR='198.51.100.30')\n"
        "print(sum(ratelimit.hit(request).allowed for _ in range(20)))\n"
    )
    workers = [
        subprocess.Popen(
            [*manage, "shell", "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(3)
    ]
    allowed = [int(worker.communicate(timeout=180)[0].strip().splitlines()[-1]) for worker in workers]
    assert sum(allowed) == 30, allowed


# --- the database cache's one-statement counter (outorga.cache.AtomicDatabaseCache.count) -------------------


@pytest.fixture
def database_cache() -> Any:
    from django.core.cache import caches

    cache = caches["default"]
    if not hasattr(cache, "count"):
        pytest.skip("the counter of the database cache (REDIS_URL is set)")
    return cache


def test_the_counter_counts_from_one_and_reads_like_any_cached_integer(database_cache: Any) -> None:
    assert [database_cache.count("rate:test:a", timeout=60) for _ in range(4)] == [1, 2, 3, 4]
    assert database_cache.get("rate:test:a") == 4
    assert database_cache.incr("rate:test:a") == 5  # the classic increment reads and writes it too
    assert database_cache.count("rate:test:a", timeout=60) == 6  # and the counter goes on from its value


def test_an_ended_window_starts_again_at_one(database_cache: Any) -> None:
    database_cache.set("rate:test:b", 41, timeout=-1)  # stored, already expired
    assert database_cache.count("rate:test:b", timeout=60) == 1
    assert database_cache.count("rate:test:b", timeout=60) == 2


def test_the_counter_never_makes_the_callers_transaction_asynchronous(database_cache: Any) -> None:
    """Inside a transaction (the tests run in one) the commit belongs to the caller: only a counter that is
    its own transaction skips the wait for the disk."""
    from django.db import connection

    from outorga.cache import _count_sql

    database_cache.count("rate:test:c", timeout=60)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('synchronous_commit')")
            assert cursor.fetchone()[0] == "on"
    assert "synchronous_commit" not in _count_sql('"t"', in_transaction=True)
    assert "set_config('synchronous_commit', 'off', true)" in _count_sql('"t"', in_transaction=False)
