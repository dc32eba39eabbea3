"""Per-process counters written in sums to the shared ops_counter table (MetricSeries), so every process
scrapes the same totals.

Writing one row per request would serialize every request of a busy route on one row lock (the same problem
apps.public.stats solves for lookups). So a process adds up in memory and writes its sums when
``counters_flush_if_due`` finds OPS_COUNTER_FLUSH_SECONDS passed (default 10; 0 writes at once), at exit, and
before /metricas/ answers. One statement per flush: INSERT … ON CONFLICT DO UPDATE adds to the stored value,
on PostgreSQL and SQLite alike. A process killed without warning loses at most those seconds of counts.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction

logger = logging.getLogger(__name__)
Key = tuple[str, str]

_pending: defaultdict[Key, float] = defaultdict(float)
_lock = threading.Lock()
_last_flush: list[float] = [time.monotonic()]
EXIT_ATTEMPTS = 3


def render_labels(labels: Mapping[str, str]) -> str:
    """Prometheus label text, sorted so one series always has one row: route="x",status="200"."""
    return ",".join(f'{key}="{_escape(str(value))}"' for key, value in sorted(labels.items()))


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def series_key(name: str, labels: Mapping[str, str]) -> Key:
    return name, render_labels(labels)[:300]


def counter_add(name: str, labels: Mapping[str, str], amount: float = 1.0) -> None:
    """Add to a series in this process; never touches the database (safe inside a query's routing)."""
    counter_add_keys([(series_key(name, labels), amount)])


def counter_add_keys(amounts: Iterable[tuple[Key, float]]) -> None:
    """Add to several series at once, their keys made beforehand with series_key (the per-request path)."""
    with _lock:
        for key, amount in amounts:
            _pending[key] += amount


def counters_flush_if_due() -> None:
    with _lock:
        due = time.monotonic() - _last_flush[0] >= getattr(settings, "OPS_COUNTER_FLUSH_SECONDS", 10)
    if due:
        counters_flush()


def counters_flush() -> bool:
    """Write this process's sums since the last flush (on the primary; outside any transaction of the caller).

    False when the database refused them; they stay pending for the next flush."""
    with _lock:
        # Sorted: every process then locks the rows in one order, so two flushes never deadlock each other.
        batch = sorted((name, labels, value) for (name, labels), value in _pending.items())
        _pending.clear()
        _last_flush[0] = time.monotonic()
    if not batch:
        return True
    try:
        with transaction.atomic(using=DEFAULT_DB_ALIAS), connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.executemany(
                "INSERT INTO ops_counter (name, labels, value) VALUES (%s, %s, %s) "
                "ON CONFLICT (name, labels) DO UPDATE SET value = ops_counter.value + excluded.value",
                batch,
            )
    except DatabaseError:
        # Metrics must never break a request: keep the sums for the next flush.
        with _lock:
            for name, labels, value in batch:
                _pending[(name, labels)] += value
        logger.warning(
            "Os contadores de métricas não foram gravados; nova tentativa no próximo envio.", exc_info=True
        )
        return False
    return True


def counters_discard() -> None:
    """Drop the sums not written yet (tests: their database is gone before the process exits)."""
    with _lock:
        _pending.clear()


def pending_total(name: str) -> float:
    """What this process counted for `name` and has not written yet (for tests and outorga_status)."""
    with _lock:
        return sum(value for (series, _labels), value in _pending.items() if series == name)


def _flush_at_exit() -> None:
    try:
        # The last chance to write: a flush refused by a passing conflict is tried again before giving up.
        for attempt in range(EXIT_ATTEMPTS):
            if counters_flush():
                return
            time.sleep(0.2 * (attempt + 1))
        logger.warning("Os contadores deste processo não foram gravados ao sair.")
    except Exception:  # the database may already be gone at shutdown  # noqa: BLE001
        logger.warning("Os contadores deste processo não foram gravados ao sair.", exc_info=True)


atexit.register(_flush_at_exit)
