"""Files committed but not yet in the store: kept in the database, written after the commit, retried until stored.

A row's file is first a PendingFile (its bytes, its SHA-256) in the row's own transaction. Once the transaction
commits, the file is written to the store at once (``pending_file_deliver``); a store that is down or refuses the
write leaves the PendingFile in place with the error and a time to try again, and the task worker retries it with
backoff (``pending_files_deliver``: the ``deliver_pending_files`` task, and the ``file_writes`` scheduled job for
a process that died between the commit and the write). It never gives up: the bytes stay in the database (and in
its backups) until the store confirms them. Until then the file is *pending*: served as «ainda em gravação»
(apps.ops.storage), listed on the operations page (/operacao/) and counted in the metrics.

Every write is claimed first (a short lease), so the write after the commit, the task and the scheduled job never
write one file twice at the same time; writing is idempotent anyway (an object already holding the same bytes
counts as stored).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import secrets
from dataclasses import dataclass

from django.apps import apps
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from apps.audit.services import audit_record
from apps.ops.models import PendingFile

logger = logging.getLogger("outorga.storage")

# Minutes to wait after the n-th failed write; after the last one, every RETRY_BACKOFF_MINUTES[-1] minutes.
RETRY_BACKOFF_MINUTES = (1, 5, 15, 60)
CLAIM_MINUTES = 10
BATCH = 50


class StoredNameChangedError(RuntimeError):
    """The storage kept the bytes under another name than the one the committed row points to."""


@dataclass(frozen=True)
class DeliveryOutcome:
    stored: int = 0
    retried: int = 0


def field_label(field: models.FileField) -> str:
    return f"{field.model._meta.label_lower}.{field.name}"


def storage_of(label: str) -> Storage:
    """The storage of a file field named like ``registry.document.file``."""
    app_label, model_name, field_name = label.split(".")
    field = apps.get_model(app_label, model_name)._meta.get_field(field_name)
    assert isinstance(field, models.FileField), label
    return field.storage


def pending_file_keep(
    *, field: models.FileField, name: str, content: bytes, municipality_id: int | None
) -> PendingFile:
    """Keep the bytes in the caller's transaction and write them to the store once it commits."""
    pending = PendingFile.objects.create(
        municipality_id=municipality_id,
        field=field_label(field),
        name=name,
        content=content,
        sha256=hashlib.sha256(content).hexdigest(),
        size=len(content),
        next_attempt_at=timezone.now(),
    )
    transaction.on_commit(lambda: pending_file_deliver(pending_id=pending.pk), robust=True)
    return pending


def is_pending(field: models.FileField, name: str) -> bool:
    return PendingFile.objects.filter(field=field_label(field), name=name).exists()


def pending_file_deliver(*, pending_id: int, now: dt.datetime | None = None) -> bool:
    """Write one pending file now (the write after the commit); False when it failed and waits for a retry."""
    now = now or timezone.now()
    claimed = _claim(PendingFile.objects.filter(pk=pending_id), now)
    if not claimed:
        return False  # stored already, or another process holds it
    stored = _attempt(claimed[0], now)
    if not stored:
        _schedule_retry()
    return stored


def pending_files_deliver(*, now: dt.datetime | None = None) -> DeliveryOutcome:
    """Write every pending file whose time has come, a batch at a time (the task and the scheduled job)."""
    stored = retried = 0
    while True:
        moment = now or timezone.now()
        due = PendingFile.objects.filter(next_attempt_at__lte=moment).order_by("next_attempt_at", "pk")
        batch = _claim(due, moment, limit=BATCH)
        for pending in batch:
            if _attempt(pending, moment):
                stored += 1
            else:
                retried += 1
        if len(batch) < BATCH:
            break
    if retried:
        _schedule_retry()
    return DeliveryOutcome(stored=stored, retried=retried)


def _claim(rows: models.QuerySet[PendingFile], now: dt.datetime, limit: int = 1) -> list[PendingFile]:
    token = secrets.token_hex(16)
    unclaimed = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    ids = list(rows.filter(unclaimed).values_list("pk", flat=True)[:limit])
    PendingFile.objects.filter(unclaimed, pk__in=ids).update(
        claimed_until=now + dt.timedelta(minutes=CLAIM_MINUTES), claim_token=token
    )
    return list(PendingFile.objects.filter(claim_token=token, pk__in=ids).order_by("pk"))


def _attempt(pending: PendingFile, now: dt.datetime) -> bool:
    try:
        _write(storage_of(pending.field), pending.name, bytes(pending.content), pending.sha256)
    except Exception as error:  # noqa: BLE001  (any store failure: keep the bytes, try again later)
        logger.exception(
            "File %s could not be written to the storage (attempt %d)", pending.name, pending.attempts + 1
        )
        _record_failure(pending, error, now)
        return False
    PendingFile.objects.filter(pk=pending.pk, claim_token=pending.claim_token).delete()
    if pending.attempts:
        _audit(pending, "file.write_recovered", {"attempts": pending.attempts + 1})
    return True


def _write(storage: Storage, name: str, content: bytes, sha256: str) -> None:
    if storage.exists(name):  # an earlier attempt may have written it before failing to say so
        with storage.open(name, "rb") as handle:
            if hashlib.sha256(handle.read()).hexdigest() == sha256:
                return
        storage.delete(name)
    saved = storage.save(name, ContentFile(content))
    if saved != name:
        raise StoredNameChangedError(f"storage saved {name!r} as {saved!r}")


def _record_failure(pending: PendingFile, error: Exception, now: dt.datetime) -> None:
    attempts = pending.attempts + 1
    delay = RETRY_BACKOFF_MINUTES[min(attempts, len(RETRY_BACKOFF_MINUTES)) - 1]
    described = f"{type(error).__name__}: {error}"[:1000]
    with transaction.atomic():
        PendingFile.objects.filter(pk=pending.pk).update(
            attempts=attempts,
            last_error=described,
            next_attempt_at=now + dt.timedelta(minutes=delay),
            claimed_until=None,
            claim_token="",
        )
        if attempts == 1:  # the first failure is the event; the retries are on the operations page
            _audit(pending, "file.write_failed", {"error": described})


def _audit(pending: PendingFile, action: str, extra: dict[str, object]) -> None:
    with transaction.atomic():
        audit_record(
            actor=None,
            municipality=pending.municipality,
            action=action,
            object_type="ops.pendingfile",
            object_id=str(pending.pk),
            after={"file": pending.name, "field": pending.field, "sha256": pending.sha256, **extra},
        )


def _schedule_retry() -> None:
    """Wake the task worker when the earliest pending file is due (the scheduled job is the safety net)."""
    from apps.ops.tasks import deliver_pending_files

    first = PendingFile.objects.order_by("next_attempt_at").values_list("next_attempt_at", flat=True).first()
    if first is not None:
        deliver_pending_files.using(run_after=first).enqueue()
