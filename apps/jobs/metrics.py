"""The jobs' Prometheus families (periodic runs and the e-mail outbox), added to ops' exposition at startup."""

from __future__ import annotations

from django.db.models import Count, Max

from apps.jobs.models import JobRun, OutboundMail
from apps.ops.metrics import Sample, register_family


def _job_runs() -> list[Sample]:
    rows = JobRun.objects.order_by().values_list("job", "status").annotate(last=Max("finished_at"))
    return [
        ({"job": job, "status": status}, last.timestamp()) for job, status, last in rows if last is not None
    ]


def _outbox() -> list[Sample]:
    rows = OutboundMail.objects.order_by().values_list("status").annotate(total=Count("pk"))
    return [({"status": status}, float(total)) for status, total in rows]


register_family(
    "outorga_job_last_finished_timestamp_seconds",
    "gauge",
    "when each periodic job last finished, by status",
    _job_runs,
)
register_family("outorga_mail_outbox", "gauge", "e-mails in the outbox by status", _outbox)
