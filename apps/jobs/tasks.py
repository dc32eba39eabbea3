"""Background tasks (django-tasks, database backend by default): run by ``manage.py db_worker``."""

from __future__ import annotations

from django_tasks import task

from apps.jobs import services


@task()
def deliver_outbox() -> dict[str, int]:
    outcome = services.outbox_deliver()
    return {"sent": outcome.sent, "retried": outcome.retried, "failed": outcome.failed}


@task()
def run_scheduled_job(run_id: int) -> str:
    return services.job_run_execute(run_id=run_id).status
