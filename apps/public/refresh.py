"""Open data follows every change of standing: a permit's audited change schedules a new export of its
municipality's files, debounced — the first change opens a window of OPEN_DATA_DEBOUNCE_SECONDS, the export runs
when it closes (a background task) and reads the state then, so a burst of changes (a sweep, a fleet's renewal)
costs one export. The daily job (apps.jobs.schedule, "open_data") still runs, for the changes the calendar makes.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

PERMIT = "licensing.permit"


def _flag(municipality_id: int) -> str:
    return f"public:open-data-due:{municipality_id}"


def debounce_seconds() -> int:
    return int(getattr(settings, "OPEN_DATA_DEBOUNCE_SECONDS", 10))


def permit_recorded(municipality_id: int | None) -> None:
    """audit observer (apps.audit.observers): a permit of the municipality changed; export once it commits."""
    if municipality_id is not None:
        transaction.on_commit(lambda: open_data_refresh_request(municipality_id=municipality_id))


def open_data_refresh_request(*, municipality_id: int) -> bool:
    """Queue one export at the end of the debounce window, unless one is already waiting. True if queued."""
    from apps.public.tasks import export_open_data_task

    wait = debounce_seconds()
    if not cache.add(_flag(municipality_id), "1", timeout=wait + 300):
        return False
    run_after = timezone.now() + dt.timedelta(seconds=wait)
    export_open_data_task.using(run_after=run_after).enqueue(municipality_id)
    return True


def open_data_refresh_run(*, municipality_id: int) -> int | None:
    """The queued export: clear the window first (a change during the export queues the next one), then
    publish the files as of today. Returns the count of permits, None for a municipality gone."""
    from apps.public.opendata import export_municipality
    from apps.tenancy.models import Municipality
    from outorga.localdates import local_today

    cache.delete(_flag(municipality_id))
    municipality = Municipality.objects.filter(pk=municipality_id).first()
    if municipality is None:
        return None
    return export_municipality(municipality, local_today()).rows
