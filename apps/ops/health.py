"""Readiness checks for monitoring and load balancers: database, shared store, migrations, file storage, task queue.

Each check answers ok or not (and the shared store: degraded) with a short Portuguese detail for the person
reading ``outorga_status``. The HTTP endpoint answers anyone only its status (ok, degraded, fail); a monitor
that sends METRICS_TOKEN also learns each check's state, never their details (apps/ops/views.py).
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from django.core.cache import caches
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apps.ops.storage import is_s3
from outorga.cache import CountingRedisCache

# A task still waiting after this long means no worker is consuming the queue.
STALE_QUEUE = dt.timedelta(minutes=15)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    degraded: bool = False  # serving, but with less than promised (the shared store down: per-process limits)


def database() -> Check:
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        return Check("database", False, f"o banco não responde ({type(error).__name__})")
    return Check("database", True, f"o banco responde ({connections[DEFAULT_DB_ALIAS].vendor})")


def shared_store() -> Check:
    """The store every process shares for rate limits and one-time marks (Redis with REDIS_URL, else the
    database's cache table). Redis down does not stop the instance (outorga.cache degrades to per-process
    limits): the check stays ok and says degraded."""
    cache = caches["default"]
    if not isinstance(cache, CountingRedisCache):
        return Check("shared_store", True, "contadores na tabela de cache do banco")
    error = cache.ping_error()
    if error is not None:
        return Check(
            "shared_store",
            True,
            f"o Redis não responde ({type(error).__name__}): limites de acesso valem por processo",
            degraded=True,
        )
    return Check("shared_store", True, "o Redis responde")


def migrations() -> Check:
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
    if pending:
        return Check("migrations", False, f"{len(pending)} migração(ões) pendente(s): rode manage.py migrate")
    return Check("migrations", True, "todas as migrações aplicadas")


def storage() -> Check:
    name = f"health/{uuid.uuid4().hex}.txt"
    try:
        saved = default_storage.save(name, ContentFile(b"ok"))
        default_storage.delete(saved)
    except Exception as error:  # disk (OSError) or S3 (botocore errors, which are not OSError)
        return Check("storage", False, f"não foi possível gravar arquivos ({type(error).__name__})")
    where = (
        f"bucket {getattr(default_storage, 'bucket_name', '')}" if is_s3(default_storage) else "disco local"
    )
    return Check("storage", True, f"arquivos podem ser gravados e apagados ({where})")


def task_queue(now: dt.datetime | None = None) -> Check:
    now = now or timezone.now()
    waiting = DBTaskResult.objects.ready()
    oldest = waiting.order_by("enqueued_at").values_list("enqueued_at", flat=True).first()
    if oldest is not None and now - oldest > STALE_QUEUE:
        minutes = int((now - oldest).total_seconds() // 60)
        return Check(
            "task_queue",
            False,
            f"{waiting.count()} tarefa(s) esperando há {minutes} min: a fila está parada?",
        )
    return Check("task_queue", True, f"{waiting.count()} tarefa(s) na fila")


def run_checks() -> list[Check]:
    first = database()
    if not first.ok:  # the other checks all need the database
        return [first]
    return [first, shared_store(), migrations(), storage(), task_queue()]
