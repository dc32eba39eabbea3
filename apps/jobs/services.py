"""Writes of the jobs app: queueing and delivering e-mails, scheduling and running periodic jobs.

Every write is one transaction with its audit record. E-mails are delivered outside any transaction (a slow
mail server never holds a lock): rows are first *claimed* with a short lease, then sent, then marked.
Delivery is at least once — a worker killed between sending and marking sends that e-mail again later.
"""

from __future__ import annotations

import datetime as dt
import io
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from apps.audit.services import audit_record
from apps.jobs.choices import MailStatus, RunStatus
from apps.jobs.models import JobLease, JobRun, OutboundMail
from apps.jobs.schedule import Job, enabled_jobs, job_named
from outorga.bulkinsert import insert_rows

# Minutes to wait after the n-th failed attempt; after the last one the e-mail is given up (status failed).
RETRY_BACKOFF_MINUTES = (1, 5, 30, 120, 720)
CLAIM_MINUTES = 10
DELIVERY_BATCH = 200
SKIPPED_OUTPUT = "Outra execução desta rotina ainda está em andamento."


@dataclass(frozen=True)
class MailDraft:
    recipient: str
    subject: str
    body: str
    municipality_id: int | None = None


@dataclass(frozen=True)
class DeliveryOutcome:
    sent: int = 0
    retried: int = 0
    failed: int = 0


def mail_queue(*, drafts: Iterable[MailDraft], reason: str) -> int:
    """Store e-mails in the caller's transaction and wake the worker once it commits.

    The rows go in with one bulk insert of plain values (outorga.bulkinsert: COPY on PostgreSQL), so thousands
    of reminders cost no model instance each; mail_queue_rows is for callers that need the rows back."""
    _require_transaction()
    now = timezone.now()
    pending = MailStatus.PENDING.value
    rows = (
        (
            d.municipality_id,
            d.recipient,
            d.subject[:255],
            d.body,
            reason,
            pending,
            0,
            now,
            None,
            "",
            "",
            now,
            None,
        )
        for d in drafts
        if d.recipient
    )
    count = insert_rows(OutboundMail._meta.db_table, _MAIL_COLUMNS, rows)
    if count:
        transaction.on_commit(_wake_mail_worker)
    return count


# Every column of a new OutboundMail, in the order mail_queue gives them (the model's defaults spelled out).
_MAIL_COLUMNS = (
    "municipality_id",
    "recipient",
    "subject",
    "body",
    "reason",
    "status",
    "attempts",
    "next_attempt_at",
    "claimed_until",
    "claim_token",
    "last_error",
    "created_at",
    "sent_at",
)


def _require_transaction() -> None:
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("mail_queue must run inside the transaction of the change that causes the e-mails")


def mail_queue_rows(*, drafts: Iterable[MailDraft], reason: str) -> list[OutboundMail]:
    """Like mail_queue, returning the stored rows (drafts without an address skipped, the others in order) so
    the caller can keep their ids (a notification shows staff how its e-mail was delivered)."""
    return _queue(drafts, reason)


def _queue(drafts: Iterable[MailDraft], reason: str) -> list[OutboundMail]:
    _require_transaction()
    now = timezone.now()
    rows = [
        OutboundMail(
            municipality_id=d.municipality_id,
            recipient=d.recipient,
            subject=d.subject[:255],
            body=d.body,
            reason=reason,
            next_attempt_at=now,
        )
        for d in drafts
        if d.recipient
    ]
    OutboundMail.objects.bulk_create(rows, batch_size=1000)
    if rows:
        transaction.on_commit(_wake_mail_worker)
    return rows


def _wake_mail_worker() -> None:
    from apps.jobs.tasks import deliver_outbox

    deliver_outbox.enqueue()


def outbox_deliver(*, now: dt.datetime | None = None, limit: int = DELIVERY_BATCH) -> DeliveryOutcome:
    """Send the due e-mails, a batch at a time, until none is due."""
    total = DeliveryOutcome()
    while True:
        outcome = _deliver_batch(now or timezone.now(), limit)
        total = DeliveryOutcome(*(a + b for a, b in zip(_counts(total), _counts(outcome), strict=True)))
        if sum(_counts(outcome)) < limit:
            return total


def _counts(outcome: DeliveryOutcome) -> tuple[int, int, int]:
    return outcome.sent, outcome.retried, outcome.failed


def _deliver_batch(now: dt.datetime, limit: int) -> DeliveryOutcome:
    mails = _claim(now, limit)
    if not mails:
        return DeliveryOutcome()
    results = _send(mails)
    with transaction.atomic():
        outcome = _mark(mails, results, now)
        audit_record(
            actor=None,
            municipality=None,
            action="jobs.mail_delivery",
            object_type="jobs.outboundmail",
            object_id=f"{mails[0].pk}..{mails[-1].pk}",
            after={
                "sent": outcome.sent,
                "retried": outcome.retried,
                "failed": outcome.failed,
                "ids": [m.pk for m in mails],
            },
        )
    return outcome


def _claim(now: dt.datetime, limit: int) -> list[OutboundMail]:
    token = secrets.token_hex(16)
    unclaimed = Q(claimed_until__isnull=True) | Q(claimed_until__lt=now)
    due = OutboundMail.objects.filter(unclaimed, status=MailStatus.PENDING, next_attempt_at__lte=now)
    with transaction.atomic():
        ids = list(due.order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:limit])
        OutboundMail.objects.filter(unclaimed, pk__in=ids, status=MailStatus.PENDING).update(
            claimed_until=now + dt.timedelta(minutes=CLAIM_MINUTES), claim_token=token
        )
    return list(OutboundMail.objects.filter(claim_token=token, pk__in=ids).order_by("pk"))


def _send(mails: list[OutboundMail]) -> dict[int, str]:
    """Send each e-mail on one connection; the error text of those that failed, by id."""
    errors: dict[int, str] = {}
    try:
        connection = get_connection()
        connection.open()
    except Exception as error:  # noqa: BLE001  (any transport error means: retry every e-mail later)
        return {mail.pk: _describe(error) for mail in mails}
    try:
        for mail in mails:
            message = EmailMessage(
                mail.subject, mail.body, settings.DEFAULT_FROM_EMAIL, [mail.recipient], connection=connection
            )
            try:
                message.send()
            except Exception as error:  # noqa: BLE001  (one bad address must not stop the batch)
                errors[mail.pk] = _describe(error)
    finally:
        connection.close()
    return errors


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:1000]


def _mark(mails: list[OutboundMail], errors: dict[int, str], now: dt.datetime) -> DeliveryOutcome:
    sent = [m.pk for m in mails if m.pk not in errors]
    OutboundMail.objects.filter(pk__in=sent).update(
        status=MailStatus.SENT, sent_at=now, claimed_until=None, claim_token="", attempts=1, last_error=""
    )
    retried = failed = 0
    for mail in (m for m in mails if m.pk in errors):
        mail.attempts += 1
        mail.last_error, mail.claimed_until, mail.claim_token = errors[mail.pk], None, ""
        if mail.attempts > len(RETRY_BACKOFF_MINUTES):
            mail.status, failed = MailStatus.FAILED, failed + 1
        else:
            delay = RETRY_BACKOFF_MINUTES[mail.attempts - 1]
            mail.next_attempt_at, retried = now + dt.timedelta(minutes=delay), retried + 1
        mail.save(
            update_fields=[
                "attempts",
                "last_error",
                "claimed_until",
                "claim_token",
                "status",
                "next_attempt_at",
            ]
        )
    return DeliveryOutcome(sent=len(sent), retried=retried, failed=failed)


def schedule_tick(*, now: dt.datetime | None = None) -> list[JobRun]:
    """Queue every job whose current slot has no run yet; safe with several schedulers at once."""
    now = now or timezone.now()
    queued = []
    for job in enabled_jobs():
        slot = job.slot(now)
        if slot is not None and (run := _queue_run(job, slot)) is not None:
            queued.append(run)
    return queued


def _queue_run(job: Job, slot: str) -> JobRun | None:
    from apps.jobs.tasks import run_scheduled_job

    if JobRun.objects.filter(job=job.name, slot=slot).exists():
        return None
    try:
        with transaction.atomic():
            run = JobRun.objects.create(job=job.name, slot=slot)
            run_scheduled_job.enqueue(run.pk)
            audit_record(
                actor=None,
                municipality=None,
                action="jobs.run_queued",
                obj=run,
                after={"job": job.name, "slot": slot},
            )
    except IntegrityError:  # another scheduler queued this slot first
        return None
    return run


def job_run_execute(*, run_id: int) -> JobRun:
    """Run a queued job under its lease, recording start, end and the command's output."""
    run = JobRun.objects.get(pk=run_id)
    if run.status != RunStatus.QUEUED:  # a task delivered twice: the run it names already ran (or runs)
        return run
    job = job_named(run.job)
    holder = secrets.token_hex(16)
    if not _lease_take(job, holder):
        return _run_skip(run)
    try:
        if not _run_start(run):
            return run
        output = io.StringIO()
        try:
            call_command(*job.command, stdout=output, stderr=output)
        except BaseException as error:
            _run_finish(run, RunStatus.FAILED, f"{output.getvalue()}\n{_describe(error)}".strip())
            raise
        return _run_finish(run, RunStatus.DONE, output.getvalue())
    finally:
        _lease_release(job, holder)


def _run_start(run: JobRun) -> bool:
    """Move the run from queued to running; False when another worker got there first."""
    with transaction.atomic():
        run.status, run.started_at = RunStatus.RUNNING, timezone.now()
        queued = JobRun.objects.filter(pk=run.pk, status=RunStatus.QUEUED)
        if not queued.update(status=run.status, started_at=run.started_at):
            run.refresh_from_db()
            return False
        audit_record(
            actor=None, municipality=None, action="jobs.run_started", obj=run, after={"job": run.job}
        )
    return True


def _run_skip(run: JobRun) -> JobRun:
    """Another run of the job holds the lease: this one is recorded as not run (unless it already started —
    the lease holder may be this very run, delivered twice)."""
    with transaction.atomic():
        queued = JobRun.objects.filter(pk=run.pk, status=RunStatus.QUEUED)
        if queued.update(status=RunStatus.SKIPPED, finished_at=timezone.now(), output=SKIPPED_OUTPUT):
            audit_record(
                actor=None,
                municipality=None,
                action="jobs.run_finished",
                obj=run,
                after={"job": run.job, "status": RunStatus.SKIPPED},
            )
    run.refresh_from_db()
    return run


def _run_finish(run: JobRun, status: str, output: str) -> JobRun:
    with transaction.atomic():
        run.status, run.finished_at, run.output = status, timezone.now(), output[-20000:]
        run.save(update_fields=["status", "finished_at", "output"])
        audit_record(
            actor=None,
            municipality=None,
            action="jobs.run_finished",
            obj=run,
            after={"job": run.job, "status": status},
        )
    return run


def _lease_take(job: Job, holder: str) -> bool:
    now = timezone.now()
    JobLease.objects.bulk_create([JobLease(name=job.name)], ignore_conflicts=True)
    free = Q(expires_at__isnull=True) | Q(expires_at__lt=now)
    expires = now + dt.timedelta(minutes=job.lease_minutes)
    return JobLease.objects.filter(free, name=job.name).update(holder=holder, expires_at=expires) == 1


def _lease_release(job: Job, holder: str) -> None:
    JobLease.objects.filter(name=job.name, holder=holder).update(holder="", expires_at=None)
