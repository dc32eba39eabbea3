"""The audit table refuses UPDATE and DELETE in the database itself (SQLite and PostgreSQL)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from apps.audit.models import AuditEvent
from apps.tenancy.models import Municipality


def raw(sql: str, params: list[int | str]) -> None:
    # A savepoint, so PostgreSQL's aborted statement does not poison the test transaction.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.django_db
def test_it_refuses_update_through_raw_sql(olimpia: Municipality) -> None:
    event = AuditEvent.objects.get()
    with pytest.raises(DatabaseError, match="append-only"):
        raw("UPDATE audit_auditevent SET action = %s WHERE id = %s", ["forged", event.pk])
    assert AuditEvent.objects.get().action == "municipality.create"


@pytest.mark.django_db
def test_it_refuses_delete_through_raw_sql(olimpia: Municipality) -> None:
    event = AuditEvent.objects.get()
    with pytest.raises(DatabaseError, match="append-only"):
        raw("DELETE FROM audit_auditevent WHERE id = %s", [event.pk])
    assert AuditEvent.objects.filter(pk=event.pk).exists()


@pytest.mark.django_db
def test_it_refuses_update_through_the_orm(olimpia: Municipality) -> None:
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEvent.objects.update(actor_name="someone else")


@pytest.mark.django_db(transaction=True)  # committed rows: no pending FK checks to trip TRUNCATE first
def test_it_refuses_truncate_on_postgresql(olimpia: Municipality) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("TRUNCATE exists only on PostgreSQL; SQLite's DELETE is covered above")
    with pytest.raises(DatabaseError, match="append-only"):
        raw("TRUNCATE audit_auditevent CASCADE", [])


@pytest.mark.django_db(transaction=True)
def test_it_lets_flush_empty_the_table_and_keeps_the_protection(olimpia: Municipality) -> None:
    call_command("flush", interactive=False, stdout=StringIO())
    assert not AuditEvent.objects.exists()
    municipality = Municipality.objects.create(
        ibge_code="3533908", name="Olímpia", uf="SP", slug="olimpia-sp"
    )
    with transaction.atomic():
        from apps.audit.services import audit_record

        audit_record(actor=None, municipality=municipality, action="test.event", obj=municipality)
    with pytest.raises(DatabaseError, match="append-only"):
        raw("DELETE FROM audit_auditevent", [])
