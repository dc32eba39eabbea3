"""Background tasks of finance (django-tasks; run by ``manage.py db_worker``): the guides waiting for a value,
issued when it is entered; the calls to the PSP, made only after the commit of the change that needs them (what
fails is retried by the ``pix_charges_sync`` job)."""

from __future__ import annotations

from django.utils import timezone
from django_tasks import task

from apps.finance import services, services_pix
from apps.tenancy.models import Municipality


@task()
def issue_waiting_guides(municipality_id: int) -> int:
    """Issue the municipality's guides that were waiting for a value, as of the day the worker runs."""
    municipality = Municipality.objects.get(pk=municipality_id)
    return services.waiting_guides_issue(actor=None, municipality=municipality, as_of=timezone.localdate())


@task()
def sync_pix_charge(charge_id: int) -> str:
    charge = services_pix.pix_charge_sync(charge_id=charge_id, now=timezone.now())
    return charge.last_error or "ok"


@task()
def refund_pix(review_id: int) -> str:
    return services_pix.payment_review_refund_send(review_id=review_id)
