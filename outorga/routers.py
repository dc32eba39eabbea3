"""Read replica routing: public lookups, reports and exports read from a streaming replica when one is set.

With ``DATABASE_REPLICA_URL`` set, settings add a ``replica`` database and this router. Only code that asks
for it reads there — views and commands wrapped in ``reads_from_replica`` (the public lookup, open-data
exports, report downloads). Everything else, every write, and every read inside a transaction stays on the
primary. A request that wrote reads its own writes: once it has written it reads from the primary (writes to
the bookkeeping tables of REPLICA_BOOKKEEPING_TABLES — rate limits, counters — do not count), and an
unsafe request (POST…) that wrote pins its client to the primary for ``REPLICA_PIN_SECONDS`` with a cookie,
longer than the replica may lag.

The replica is used only while it is healthy: at most every ``REPLICA_CHECK_SECONDS`` each process asks it
how far behind it is. When it cannot be reached or lags more than ``REPLICA_MAX_LAG_SECONDS``, reads fall back
to the primary, a warning is logged once per change of state, and ``outorga_replica_fallbacks_total{reason}``
counts the reads that fell back (``outorga_replica_lag_seconds`` shows the last lag measured).
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.http import HttpRequest, HttpResponse

REPLICA = "replica"
PIN_COOKIE = "outorga_primario"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
READ_ONLY_SQL = ("SELECT", "SHOW", "EXPLAIN", "SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT", "SET")
WRITE_TARGET = re.compile(r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?', re.IGNORECASE)
# Django's database cache holds the rate-limit counters: they must be read exactly, so always on the primary.
PRIMARY_ONLY_APPS = frozenset({"django_cache", "sessions"})

logger = logging.getLogger("outorga.replica")
F = TypeVar("F", bound=Callable[..., Any])

_replica_wanted: ContextVar[bool] = ContextVar("outorga_replica_wanted", default=False)
_primary_pinned: ContextVar[bool] = ContextVar("outorga_primary_pinned", default=False)


# --- Marking the code that may read from the replica ------------------------------------------------------


@contextmanager
def replica_reads() -> Iterator[None]:
    token = _replica_wanted.set(True)
    try:
        yield
    finally:
        _replica_wanted.reset(token)


def reads_from_replica(function: F) -> F:
    """For a view or a command's handle(): its reads may be served by the replica (when healthy)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with replica_reads():
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def replica_configured() -> bool:
    return REPLICA in settings.DATABASES


# --- Health of the replica, measured now and then by each process -----------------------------------------


@dataclass(frozen=True)
class ReplicaHealth:
    usable: bool
    reason: str  # "ok", "unavailable" or "lagging"
    lag_seconds: float | None
    checked_at: float


LAG_SQL = (
    "SELECT CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() "
    "THEN 0 ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END"
)
_health: list[ReplicaHealth | None] = [None]
_health_lock = threading.Lock()


def replica_health(*, refresh: bool = False) -> ReplicaHealth:
    """The replica's last measured state, measured again when older than REPLICA_CHECK_SECONDS."""
    with _health_lock:
        known = _health[0]
        fresh = known is not None and time.monotonic() - known.checked_at < settings.REPLICA_CHECK_SECONDS
        if fresh and not refresh and known is not None:
            return known
        measured = _measure()
        if known is None or known.reason != measured.reason:
            _log_change(measured)
        _health[0] = measured
        return measured


def _measure() -> ReplicaHealth:
    now = time.monotonic()
    connection = connections[REPLICA]
    try:
        with connection.cursor() as cursor:
            cursor.execute(LAG_SQL)
            lag = float(cursor.fetchone()[0])
    except DatabaseError:
        connection.close()  # a new connection is tried at the next check
        return ReplicaHealth(False, "unavailable", None, now)
    if lag > settings.REPLICA_MAX_LAG_SECONDS:
        return ReplicaHealth(False, "lagging", lag, now)
    return ReplicaHealth(True, "ok", lag, now)


def _log_change(health: ReplicaHealth) -> None:
    if health.usable:
        logger.info("Réplica de leitura em uso (atraso %.1f s).", health.lag_seconds or 0.0)
    elif health.reason == "lagging":
        logger.warning(
            "Réplica atrasada %.1f s (limite %s s): leituras voltam ao banco principal.",
            health.lag_seconds or 0.0,
            settings.REPLICA_MAX_LAG_SECONDS,
        )
    else:
        logger.warning("Réplica de leitura fora do ar: leituras voltam ao banco principal.")


def reset_replica_health() -> None:
    """Forget the last measurement (tests; and after changing the replica's settings)."""
    with _health_lock:
        _health[0] = None


# --- The router -------------------------------------------------------------------------------------------


def read_alias() -> str:
    """Where a read made now goes: the replica only when asked for, outside a transaction, and healthy."""
    if not _replica_wanted.get() or not replica_configured() or _primary_pinned.get():
        return DEFAULT_DB_ALIAS
    if connections[DEFAULT_DB_ALIAS].in_atomic_block:
        return DEFAULT_DB_ALIAS
    health = replica_health()
    if not health.usable:
        from apps.ops.counters import counter_add

        counter_add("outorga_replica_fallbacks_total", {"reason": health.reason})
        return DEFAULT_DB_ALIAS
    return REPLICA


class ReplicaRouter:
    def db_for_read(self, model: type, **hints: Any) -> str:
        if model._meta.app_label in PRIMARY_ONLY_APPS:  # type: ignore[attr-defined]
            return DEFAULT_DB_ALIAS
        return read_alias()

    def db_for_write(self, model: type, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # the same data on both sides

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS  # the replica receives the schema by streaming


# --- Read your own writes ---------------------------------------------------------------------------------


class ReadYourWritesMiddleware:
    """Keeps a client that just wrote on the primary, in this request and for a few seconds after it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_configured():
            return self.get_response(request)
        token = _primary_pinned.set(PIN_COOKIE in request.COOKIES)
        wrote = [False]
        try:
            with connections[DEFAULT_DB_ALIAS].execute_wrapper(_WriteWatcher(wrote)):
                response = self.get_response(request)
        finally:
            _primary_pinned.reset(token)
        if wrote[0] and request.method in UNSAFE_METHODS:
            response.set_cookie(
                PIN_COOKIE,
                "1",
                max_age=settings.REPLICA_PIN_SECONDS,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response


class _WriteWatcher:
    """From the first write on, this request's reads go to the primary (a replica may not have it yet)."""

    def __init__(self, wrote: list[bool]) -> None:
        self.wrote = wrote

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if _is_a_write_to_read_back(sql):
            self.wrote[0] = True
            _primary_pinned.set(True)
        return execute(sql, params, many, context)


def _is_a_write_to_read_back(sql: str) -> bool:
    """A write, except to the bookkeeping tables (rate limits, counters) that no page reads back."""
    if sql.lstrip().upper().startswith(READ_ONLY_SQL):
        return False
    target = WRITE_TARGET.match(sql)
    return target is None or target[1] not in settings.REPLICA_BOOKKEEPING_TABLES
