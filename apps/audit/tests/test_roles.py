"""The production role split on PostgreSQL: the app's role cannot switch the audit triggers off or delete."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction

from apps.audit.models import AuditEvent
from apps.audit.roles import app_role_grants
from apps.audit.services import audit_record
from apps.audit.triggers import TABLE
from apps.tenancy.models import Municipality

APP_ROLE = "outorga_app_role_test"


def as_app_role(sql: str) -> None:
    """Run one statement as the app's role, in a savepoint: a refusal rolls it back, SET LOCAL ROLE included."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL ROLE {APP_ROLE}")
        cursor.execute(sql)
        cursor.execute("RESET ROLE")


@pytest.fixture
def app_role(olimpia: Municipality) -> str:
    if connection.vendor != "postgresql":
        pytest.skip("database roles and privileges are PostgreSQL's; SQLite has none")
    owner = connection.settings_dict["USER"] or "postgres"
    with connection.cursor() as cursor:
        # CREATE ROLE and the grants are transactional: the test's rollback removes them again.
        cursor.execute(f"CREATE ROLE {APP_ROLE} NOLOGIN")
        for sql in app_role_grants(APP_ROLE, owner_role=owner):
            cursor.execute(sql)
    return APP_ROLE


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_app_role_cannot_disable_the_audit_triggers(app_role: str) -> None:
    with pytest.raises(DatabaseError, match="must be owner"):
        as_app_role(f"ALTER TABLE {TABLE} DISABLE TRIGGER USER")


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    "sql", [f"DELETE FROM {TABLE}", f"UPDATE {TABLE} SET actor_name = 'x'", f"TRUNCATE {TABLE}"]
)
def test_the_app_role_cannot_delete_update_or_truncate_audit_rows(app_role: str, sql: str) -> None:
    with pytest.raises(DatabaseError, match="permission denied"):
        as_app_role(sql)
    assert AuditEvent.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_app_role_still_appends_and_reads(app_role: str, olimpia: Municipality) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SET LOCAL ROLE {APP_ROLE}")
        audit_record(actor=None, municipality=olimpia, action="test.as_app", obj=olimpia)
        assert AuditEvent.objects.filter(action="test.as_app").count() == 1
        cursor.execute("RESET ROLE")


def test_the_grants_command_prints_the_sql_for_the_dba() -> None:
    out = StringIO()
    call_command("audit_grants", "--app-role", "prefeitura_app", stdout=out)
    assert (
        f"REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON public.{TABLE} FROM prefeitura_app;"
        in out.getvalue()
    )


def test_role_names_are_not_sql() -> None:
    with pytest.raises(ValueError, match="Not a plain PostgreSQL role name"):
        app_role_grants("app; DROP TABLE x", owner_role="o")
