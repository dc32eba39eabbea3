"""Background tasks of the ops app (django-tasks): run by ``manage.py db_worker``."""

from __future__ import annotations

from django_tasks import task

from apps.ops import pending


@task()
def deliver_pending_files() -> dict[str, int]:
    outcome = pending.pending_files_deliver()
    return {"stored": outcome.stored, "retried": outcome.retried}
