"""Concurrent writers on one chain (PostgreSQL: real parallel transactions, row locks on the head)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from apps.audit.models import AuditEvent
from apps.audit.services import audit_record
from apps.audit.verification import verify_chain
from apps.tenancy.models import Municipality

WRITERS = 4
EVENTS_EACH = 10


def _write_events(municipality_id: int, errors: list[BaseException]) -> None:
    try:
        municipality = Municipality.objects.get(pk=municipality_id)
        for number in range(EVENTS_EACH):
            with transaction.atomic():
                audit_record(actor=None, municipality=municipality, action=f"test.{number}", obj=municipality)
    except BaseException as error:  # noqa: BLE001 - reported to the main thread
        errors.append(error)
    finally:
        connections.close_all()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_keeps_one_unbroken_chain_under_concurrent_writers(olimpia: Municipality) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite serializes writers with IMMEDIATE transactions")
    errors: list[BaseException] = []
    threads = [threading.Thread(target=_write_events, args=(olimpia.pk, errors)) for _ in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    report = verify_chain("3533908")
    assert report.ok, report.broken
    assert report.events == 1 + WRITERS * EVENTS_EACH
    assert AuditEvent.objects.filter(chain="3533908").count() == report.events
