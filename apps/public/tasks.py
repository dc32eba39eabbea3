"""Background tasks of the public app (django-tasks; run by ``manage.py db_worker``)."""

from __future__ import annotations

from django_tasks import task

from apps.public.refresh import open_data_refresh_run


@task()
def export_open_data_task(municipality_id: int) -> int | None:
    return open_data_refresh_run(municipality_id=municipality_id)
