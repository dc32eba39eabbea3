"""Django's database cache with an atomic `incr`, so counters shared by several server processes add up.

Django's DatabaseCache inherits `incr` from BaseCache: a get followed by a set. Two workers counting the same
client at the same moment both read 5 and both write 6, so a limit of 30 a minute lets more through the more
workers there are. Here the read and the write happen in one transaction that holds the row: `SELECT … FOR
UPDATE` on PostgreSQL; on SQLite the project's IMMEDIATE transactions take the write lock at BEGIN. The
row's expiry is kept (BaseCache's set would reset it to the default timeout).

`count` (a rate limit's window counter, issue 12) is one statement on PostgreSQL instead of a transaction of
four round trips plus a commit that waited for the disk: an `INSERT … ON CONFLICT DO UPDATE` that creates the
counter at 1 or adds 1 to it under the row's lock, and whose commit does not wait for the write-ahead log's
flush (`synchronous_commit` off for that statement's own transaction only; a counter is a window's tally, not
a record: a server crash can lose its last fraction of a second of increments, letting a client a few more
requests in that window). The counter is stored as a protocol-0 pickle of the integer (`I12`, a newline, `.`), which the
database can increase and `get`/`incr` read like any other value.

With REDIS_URL (the shared store of a deployment with several servers) the cache is `CountingRedisCache`: Django's
Redis cache whose `count` is one round trip — a script (`EVALSHA`) that runs `INCR key` and, when that created
the key, `EXPIRE key timeout`, so the window's counter is created with its expiry and increased atomically.
Django's own `incr` is an `EXISTS` then an `INCR` (two round trips, and `add` a third for a window's first
request).

Redis down is a degradation, never an error page (issue 28): every operation of `CountingRedisCache` that fails
with a Redis error (refused, timed out, reset) is served by a cache of this process instead (`LocMemCache`): the
rate limits become per-process limits of the same size, a used proof-of-work challenge is remembered by this
process only, kept photos live in this process. Each failure is logged (`outorga.cache`, a warning the first
time, then once a minute) and counted (`outorga_shared_store_errors_total{operation}` on /metricas/), and
readiness (/saude/pronto/, `outorga_status`) says "degraded" while it lasts. After a failure the process leaves
Redis alone for `SHARED_STORE_RETRY_SECONDS` (default 5) so that a Redis that hangs does not slow every request;
then it tries again, and the first success ends the degradation (logged too). The client's socket timeouts are
short (settings: 0.5 s) for the same reason.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import logging
import pickle
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.db import connections, router, transaction
from django.utils import timezone
from django.utils.functional import cached_property


class AtomicDatabaseCache(DatabaseCache):
    _next_cleanup = 0.0  # time.monotonic() of this process's next deletion of expired rows (count)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        quote = connection.ops.quote_name
        table = quote(self._table)  # type: ignore[attr-defined]  # set by DatabaseCache.__init__, not in the stubs
        cache_key, value_column = quote("cache_key"), quote("value")
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        now = connection.ops.adapt_datetimefield_value(timezone.now().replace(microsecond=0))
        with transaction.atomic(using=db), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {value_column} FROM {table} WHERE {cache_key} = %s AND {quote('expires')} > %s{lock}",
                [key, now],
            )
            row = cursor.fetchone()
            if row is None:
                raise ValueError(f"Key '{key}' not found")
            stored = connection.ops.process_clob(row[0])
            new_value = pickle.loads(base64.b64decode(stored.encode())) + delta
            encoded = base64.b64encode(pickle.dumps(new_value, self.pickle_protocol)).decode("latin1")
            cursor.execute(f"UPDATE {table} SET {value_column} = %s WHERE {cache_key} = %s", [encoded, key])
        return new_value

    def count(self, key: Any, timeout: int, version: int | None = None) -> int:
        """The counter after adding 1: created at 1 when missing or expired (with `timeout`), else increased."""
        made = self.make_and_validate_key(key, version=version)
        db = router.db_for_write(self.cache_model_class)
        connection = connections[db]
        if connection.vendor != "postgresql":
            return self._count_in_transaction(key, timeout, version)
        now = timezone.now().replace(microsecond=0)
        expires = now + dt.timedelta(seconds=timeout)
        table = connection.ops.quote_name(self._table)  # type: ignore[attr-defined]  # see incr
        adapt = connection.ops.adapt_datetimefield_value
        with connection.cursor() as cursor:
            cursor.execute(
                _count_sql(table, connection.in_atomic_block),
                [made, _ONE, adapt(expires), adapt(now), adapt(now), adapt(now)],
            )
            row = cursor.fetchone()
            self._drop_expired_now_and_then(cursor, table, adapt(now))
        if row is None:  # a live value this statement cannot read (set by `set`, not counted): the slow path
            return self._count_in_transaction(key, timeout, version)
        return int(pickle.loads(base64.b64decode(row[0])))

    def _drop_expired_now_and_then(self, cursor: Any, table: str, now: Any) -> None:
        """`count` never goes through `set`, whose culling deletes expired rows: each process deletes them
        itself once a minute (one indexed DELETE), so ended windows do not pile up."""
        if time.monotonic() < self._next_cleanup:
            return
        self._next_cleanup = time.monotonic() + CLEANUP_SECONDS
        cursor.execute(f"DELETE FROM {table} WHERE expires < %s", [now])

    def _count_in_transaction(self, key: Any, timeout: int, version: int | None) -> int:
        try:
            return int(self.incr(key, version=version))
        except ValueError:
            pass
        if self.add(key, 1, timeout=timeout, version=version):
            return 1
        try:
            return int(self.incr(key, version=version))
        except ValueError:  # created and expired in between: this request opens a fresh window
            self.set(key, 1, timeout=timeout, version=version)
            return 1


CLEANUP_SECONDS = 60
_ONE = base64.b64encode(b"I1\n.").decode()  # pickle protocol 0 for the integer 1


def _count_sql(table: str, in_transaction: bool) -> str:
    """The upsert of `count`. Outside a transaction it is its own, and its commit need not wait for the disk
    (`set_config(…, true)` lasts until that commit); inside a caller's transaction the caller decides."""
    source = (
        "FROM (SELECT set_config('synchronous_commit', 'off', true)) AS this_statement_only"
        if not in_transaction
        else ""
    )
    stored = "decode(cache.value, 'base64')"
    plus_one = (
        f"encode(convert_to('I' || (encode(substring({stored} from 2 for length({stored}) - 3), 'escape')"
        "::bigint + 1)::text || E'\\n.', 'UTF8'), 'base64')"
    )
    return (
        f"INSERT INTO {table} AS cache (cache_key, value, expires) SELECT %s, %s, %s {source} "
        "ON CONFLICT (cache_key) DO UPDATE SET "
        f"value = CASE WHEN cache.expires > %s THEN {plus_one} ELSE EXCLUDED.value END, "
        "expires = CASE WHEN cache.expires > %s THEN cache.expires ELSE EXCLUDED.expires END "
        f"WHERE cache.expires <= %s OR get_byte({stored}, 0) = 73 "  # 73: "I", a counter written here
        "RETURNING value"
    )


# INCR creates a missing key at 1; the window starts then. An existing key keeps its expiry, as SET NX did.
COUNT_SCRIPT = (
    "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return n"
)
COUNT_SHA = hashlib.sha1(COUNT_SCRIPT.encode()).hexdigest()


logger = logging.getLogger("outorga.cache")
T = TypeVar("T")
LOG_EVERY_SECONDS = 60


@dataclass
class SharedStoreState:
    """This process's view of the shared store: since when it fails (None: it works) and how often it did."""

    degraded_since: float | None = None  # time.time()
    retry_at: float = 0.0  # time.monotonic() before which Redis is not tried again
    failures: int = 0
    last_error: str = ""
    logged_at: float = 0.0


_state = SharedStoreState()
_state_lock = threading.Lock()


def shared_store_state() -> SharedStoreState:
    """A copy of the degradation state (readiness reads it)."""
    with _state_lock:
        return SharedStoreState(**vars(_state))


def shared_store_failed(operation: str, error: BaseException) -> None:
    """Record one failed use of the shared store: logged (rate-limited), counted, readiness degraded."""
    now, monotonic = time.time(), time.monotonic()
    with _state_lock:
        first = _state.degraded_since is None
        if first:
            _state.degraded_since = now
        _state.failures += 1
        _state.last_error = type(error).__name__
        _state.retry_at = monotonic + float(getattr(settings, "SHARED_STORE_RETRY_SECONDS", 5))
        log = first or monotonic - _state.logged_at >= LOG_EVERY_SECONDS
        if log:
            _state.logged_at = monotonic
        failures = _state.failures
    if log:
        logger.warning(
            "Armazenamento compartilhado (Redis) indisponível (%s em %s): limites e marcas valem por processo "
            "até ele voltar (%d falha(s) até agora).",
            type(error).__name__,
            operation,
            failures,
        )
    from apps.ops.counters import (
        counter_add,
    )  # the project's metrics; imported late (outorga sits above apps)

    counter_add("outorga_shared_store_errors_total", {"operation": operation})


def shared_store_recovered() -> None:
    with _state_lock:
        if _state.degraded_since is None:
            return
        since = _state.degraded_since
        _state.degraded_since = None
        _state.retry_at = 0.0
    logger.warning("Armazenamento compartilhado (Redis) de volta após %.0f s degradado.", time.time() - since)


def shared_store_waiting() -> bool:
    """True while a recent failure says not to try the shared store yet."""
    return _state.degraded_since is not None and time.monotonic() < _state.retry_at


def shared_store_reset() -> None:
    """Forget the degradation (tests)."""
    with _state_lock:
        vars(_state).update(vars(SharedStoreState()))


class CountingRedisCache(RedisCache):
    """Django's Redis cache that counts in one round trip and degrades to this process when Redis fails."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._local = LocMemCache(
            f"outorga-shared-store-fallback-{id(self)}", {"OPTIONS": {"MAX_ENTRIES": 100_000}}
        )

    @cached_property
    def _redis_errors(self) -> tuple[type[BaseException], ...]:
        from redis.exceptions import RedisError

        return (RedisError, OSError)

    def ping_error(self) -> BaseException | None:
        """Ask Redis directly (readiness): None when it answers, else the error (recorded as a failure)."""
        try:
            self._counting_client.ping()
        except self._redis_errors as error:
            shared_store_failed("ping", error)
            return error
        shared_store_recovered()
        return None

    def _shared(self, operation: str, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        if shared_store_waiting():
            return fallback()
        try:
            result = call()
        except self._redis_errors as error:
            shared_store_failed(operation, error)
            return fallback()
        if _state.degraded_since is not None:
            shared_store_recovered()
        return result

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._shared(
            "get",
            lambda: super(CountingRedisCache, self).get(key, default, version),
            lambda: self._local.get(key, default, version),
        )

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._shared(
            "set",
            lambda: super(CountingRedisCache, self).set(key, value, timeout, version),
            lambda: self._local.set(key, value, timeout, version),
        )

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._shared(
            "add",
            lambda: super(CountingRedisCache, self).add(key, value, timeout, version),
            lambda: self._local.add(key, value, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._shared(
            "touch",
            lambda: super(CountingRedisCache, self).touch(key, timeout, version),
            lambda: self._local.touch(key, timeout, version),
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._shared(
            "delete",
            lambda: super(CountingRedisCache, self).delete(key, version),
            lambda: self._local.delete(key, version),
        )

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._shared(
            "has_key",
            lambda: super(CountingRedisCache, self).has_key(key, version),
            lambda: self._local.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        return self._shared(
            "incr",
            lambda: super(CountingRedisCache, self).incr(key, delta, version),
            lambda: self._local.incr(key, delta, version),
        )

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        return self._shared(
            "get_many",
            lambda: super(CountingRedisCache, self).get_many(keys, version),
            lambda: self._local.get_many(keys, version),
        )

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        return self._shared(
            "set_many",
            lambda: super(CountingRedisCache, self).set_many(data, timeout, version),
            lambda: self._local.set_many(data, timeout, version),
        )

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._shared(
            "delete_many",
            lambda: super(CountingRedisCache, self).delete_many(keys, version),
            lambda: self._local.delete_many(keys, version),
        )

    def clear(self) -> None:
        self._shared("clear", lambda: super(CountingRedisCache, self).clear(), self._local.clear)

    @cached_property
    def _counting_client(self) -> Any:
        """One client for this process's counts: Django's `get_client` builds a new `redis.Redis` (and its
        table of response callbacks) on every call; a client is thread-safe and shares the pool anyway."""
        return self._cache.get_client(None, write=True)  # type: ignore[attr-defined]  # not in the stubs

    @cached_property
    def _no_script(self) -> type[Exception]:
        """redis' NoScriptError, imported here: the `redis` package is needed only with REDIS_URL."""
        from redis.exceptions import NoScriptError

        return NoScriptError

    def count(self, key: Any, timeout: int, version: int | None = None) -> int:
        """The counter after adding 1 (see _count); counted in this process while Redis fails."""
        return self._shared(
            "count",
            lambda: self._count(key, timeout, version),
            lambda: _local_count(self._local, key, timeout, version),
        )

    def _count(self, key: Any, timeout: int, version: int | None = None) -> int:
        """The counter after adding 1, its window of `timeout` seconds set when it is created (an expired key is
        missing), in one script Redis runs atomically (EVALSHA: one command, where MULTI/SET/INCR/EXEC through
        redis-py's pipeline cost twice the CPU, issue 12). Redis stores an integer as itself (Django's
        RedisSerializer leaves ints unpickled), so `get` and `incr` read the counter like any other value."""
        made = self.make_and_validate_key(key, version=version)
        client = self._counting_client
        try:
            counted = client.evalsha(COUNT_SHA, 1, made, timeout)
        except (
            self._no_script
        ):  # a restarted or flushed Redis: EVAL runs it and keeps it for the next EVALSHA
            counted = client.eval(COUNT_SCRIPT, 1, made, timeout)
        return int(counted)


def _local_count(cache: LocMemCache, key: Any, timeout: int, version: int | None) -> int:
    """A window's counter in this process's memory (LocMemCache's incr holds its lock)."""
    if cache.add(key, 1, timeout=timeout, version=version):
        return 1
    try:
        return int(cache.incr(key, version=version))
    except ValueError:  # expired in between
        cache.set(key, 1, timeout=timeout, version=version)
        return 1
