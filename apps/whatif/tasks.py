"""Background task of the what-if (django-tasks; run by ``manage.py db_worker``)."""

from __future__ import annotations

from django_tasks import task

from apps.whatif import services


@task()
def run_whatif(run_id: int) -> str:
    return services.whatif_run_execute(run_id=run_id).state
