"""Prometheus metrics in the text exposition format, computed from the database at scrape time.

Everything here is read from shared state (the database), so every gunicorn worker answers the same numbers
and no per-process registry is needed. Request counts and latencies are counted by each process and summed in
the ops_counter table (MetricSeries, apps.ops.counters); the scraping process writes its own sums first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from django.db.models import Count, Min
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apps.audit.models import AuditEvent
from apps.ops.counters import counters_flush
from apps.ops.health import run_checks
from apps.ops.middleware import DURATION, REQUESTS
from apps.ops.models import MetricSeries, PendingFile

Sample = tuple[dict[str, str], float]


@dataclass(frozen=True)
class Family:
    name: str
    kind: str
    help_text: str
    samples: Callable[[], list[Sample]]


# Families read from other apps' tables (jobs' runs and outbox, public's lookups). Those apps sit above ops in the
# layers (docs/architecture.md), so they register them from their AppConfig.ready instead of ops importing them.
_CONTRIBUTED: dict[str, Family] = {}


def register_family(name: str, kind: str, help_text: str, samples: Callable[[], list[Sample]]) -> None:
    """Add a family to the exposition; registering the same name again (module re-import) keeps one entry."""
    _CONTRIBUTED[name] = Family(name, kind, help_text, samples)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _family(name: str, kind: str, help_text: str, samples: Iterable[Sample]) -> Iterator[str]:
    yield f"# HELP {name} {help_text}"
    yield f"# TYPE {name} {kind}"
    for labels, value in samples:
        rendered = ",".join(f'{key}="{_escape(str(val))}"' for key, val in sorted(labels.items()))
        yield f"{name}{{{rendered}}} {value:g}" if rendered else f"{name} {value:g}"


def _checks() -> list[Sample]:
    return [({"check": check.name}, 1.0 if check.ok else 0.0) for check in run_checks()]


def _tasks() -> list[Sample]:
    rows = DBTaskResult.objects.order_by().values_list("status").annotate(total=Count("pk"))
    return [({"status": str(status)}, float(total)) for status, total in rows]


def _pending_files() -> list[Sample]:
    """How many committed files wait for the store, and the age of the oldest (alert when it grows)."""
    summary = PendingFile.objects.aggregate(total=Count("pk"), oldest=Min("created_at"))
    age = (timezone.now() - summary["oldest"]).total_seconds() if summary["oldest"] else 0.0
    return [({"measure": "files"}, float(summary["total"])), ({"measure": "oldest_age_seconds"}, age)]


def _last_sweep() -> list[Sample]:
    event = AuditEvent.objects.filter(action="licensing.daily_sweep").order_by("-occurred_at", "-pk").first()
    if event is None or not isinstance(event.after, dict):
        return []
    return [({"step": str(step)}, float(total)) for step, total in event.after.items()]


def _series(name: str) -> list[tuple[str, float]]:
    rows = list(MetricSeries.objects.filter(name=name).order_by("labels").values_list("labels", "value"))
    return sorted(rows, key=_bucket_order) if name.endswith("_bucket") else rows


LE = re.compile(r'(?:^|,)le="([^"]+)"')


def _bucket_order(row: tuple[str, float]) -> tuple[str, float]:
    """Buckets of one series together, in increasing upper bound (+Inf last), as the text format wants."""
    labels = row[0]
    bound = LE.search(labels)
    return LE.sub("", labels), float(bound[1]) if bound else float("inf")


def _counter_family(name: str, kind: str, help_text: str, parts: tuple[str, ...] = ("",)) -> Iterator[str]:
    """A family stored in the ops_counter table; a histogram is stored as its _bucket, _sum and _count series."""
    yield f"# HELP {name} {help_text}"
    yield f"# TYPE {name} {kind}"
    for part in parts:
        for labels, value in _series(name + part):
            yield f"{name}{part}{{{labels}}} {value:g}" if labels else f"{name}{part} {value:g}"


def _replica() -> list[str]:
    """Whether reads may use the replica and its lag; the families are declared even without a replica."""
    from outorga.routers import replica_configured, replica_health

    health = replica_health(refresh=True) if replica_configured() else None
    up: list[Sample] = [] if health is None else [({}, 1.0 if health.usable else 0.0)]
    lag: list[Sample] = [] if health is None or health.lag_seconds is None else [({}, health.lag_seconds)]
    return [
        *_family(
            "outorga_replica_up",
            "gauge",
            "1 when reads may use the replica (reachable, lag within REPLICA_MAX_LAG_SECONDS)",
            up,
        ),
        *_family("outorga_replica_lag_seconds", "gauge", "how far the replica is behind the primary", lag),
    ]


def _counted() -> list[str]:
    counters_flush()
    families = [
        _counter_family(REQUESTS, "counter", "HTTP requests by route name, method and status"),
        _counter_family(
            DURATION, "histogram", "HTTP request latency by route name", ("_bucket", "_sum", "_count")
        ),
        _counter_family(
            "outorga_replica_fallbacks_total",
            "counter",
            "reads meant for the replica served by the primary, by reason",
        ),
    ]
    return [line for family in families for line in family]


def exposition() -> str:
    families = [
        ("outorga_ready", "gauge", "1 when the readiness check passes, per check", _checks()),
        ("outorga_tasks", "gauge", "background tasks by status (READY = waiting for a worker)", _tasks()),
        (
            "outorga_pending_files",
            "gauge",
            "committed files still waiting in the database for the store (count, age of the oldest)",
            _pending_files(),
        ),
        (
            "outorga_sweep_last_changes",
            "gauge",
            "rows changed by each step of the latest daily sweep",
            _last_sweep(),
        ),
    ]
    families += [(f.name, f.kind, f.help_text, f.samples()) for f in _CONTRIBUTED.values()]
    lines = [line for name, kind, text, samples in families for line in _family(name, kind, text, samples)]
    return "\n".join([*lines, *_counted(), *_replica()]) + "\n"
