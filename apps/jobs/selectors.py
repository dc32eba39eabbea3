"""Reads for the operations page: the schedule with each job's last run, and the outbox."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet

from apps.jobs.models import JobRun, OutboundMail
from apps.jobs.schedule import Job, enabled_jobs


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
