"""Background tasks of the platforms app (django-tasks; run by ``manage.py db_worker``)."""

from __future__ import annotations

from django_tasks import task

from apps.platforms.services import roster


@task()
def import_roster(import_id: int) -> str:
    return roster.roster_import_run(import_id=import_id).state
