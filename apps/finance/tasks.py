"""Background tasks of finance (django-tasks; run by ``manage.py db_worker``)."""

from __future__ import annotations

from django.utils import timezone
from django_tasks import task

from apps.finance import services
from apps.tenancy.models import Municipality


@task()
def issue_waiting_guides(municipality_id: int) -> int:
    """Issue the municipality's guides that were waiting for a value, as of the day the worker runs."""
    municipality = Municipality.objects.get(pk=municipality_id)
    return services.waiting_guides_issue(actor=None, municipality=municipality, as_of=timezone.localdate())
