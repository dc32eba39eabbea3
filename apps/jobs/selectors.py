"""Reads for the operations page: the schedule with each job's last run, the files waiting for the store, and
the outbox."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet

from apps.jobs.models import JobRun, OutboundMail
from apps.jobs.schedule import Job, enabled_jobs
from apps.ops.models import PendingFile

PENDING_SHOWN = 50


@dataclass(frozen=True)
class JobStatus:
    job: Job
    last: JobRun | None


def schedule_status() -> list[JobStatus]:
    jobs = enabled_jobs()
    latest: dict[str, JobRun] = {}
    for run in JobRun.objects.filter(job__in=[j.name for j in jobs]).order_by("job", "-enqueued_at", "-pk"):
        latest.setdefault(run.job, run)
    return [JobStatus(job, latest.get(job.name)) for job in jobs]


def mail_counts(mails: QuerySet[OutboundMail]) -> dict[str, int]:
    return dict(mails.order_by().values_list("status").annotate(total=Count("pk")))


@dataclass(frozen=True)
class PendingFiles:
    total: int
    oldest: list[PendingFile]


def pending_files(user: Any, ibge_code: str = "") -> PendingFiles:
    """The user's municipalities' files still waiting for the store, oldest first (the bytes not loaded)."""
    rows = PendingFile.objects.for_user(user, "view").defer("content").select_related("municipality")
    if ibge_code:
        rows = rows.filter(municipality__ibge_code=ibge_code)
    return PendingFiles(rows.count(), list(rows.order_by("created_at", "pk")[:PENDING_SHOWN]))
