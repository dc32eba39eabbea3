"""Database triggers that make audit_auditevent append-only, for SQLite and PostgreSQL.

They guard against application bugs and casual edits through a SQL console; a DBA who drops
them can still alter rows, which `manage.py audit_verify` then detects through the hash chain.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import BaseDatabaseWrapper

TABLE = "audit_auditevent"
MESSAGE = "audit_auditevent is append-only"

_SQLITE_CREATE = [
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_update BEFORE UPDATE ON {TABLE} "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END",
    f"CREATE TRIGGER IF NOT EXISTS {TABLE}_no_delete BEFORE DELETE ON {TABLE} "
    f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END",
]
_SQLITE_DROP = [f"DROP TRIGGER IF EXISTS {TABLE}_no_update", f"DROP TRIGGER IF EXISTS {TABLE}_no_delete"]

_POSTGRES_CREATE = [
    f"""CREATE OR REPLACE FUNCTION {TABLE}_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE} (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
    END;
    $$""",
    f"CREATE TRIGGER {TABLE}_no_update_delete BEFORE UPDATE OR DELETE ON {TABLE} "
    f"FOR EACH ROW EXECUTE FUNCTION {TABLE}_refuse_change()",
    # TRUNCATE skips row triggers, so it needs its own statement-level one.
    f"CREATE TRIGGER {TABLE}_no_truncate BEFORE TRUNCATE ON {TABLE} "
    f"FOR EACH STATEMENT EXECUTE FUNCTION {TABLE}_refuse_change()",
]
_POSTGRES_DROP = [
    f"DROP TRIGGER IF EXISTS {TABLE}_no_update_delete ON {TABLE}",
    f"DROP TRIGGER IF EXISTS {TABLE}_no_truncate ON {TABLE}",
    f"DROP FUNCTION IF EXISTS {TABLE}_refuse_change()",
]


def _statements(connection: BaseDatabaseWrapper, *, create: bool) -> list[str]:
    if connection.vendor == "sqlite":
        return _SQLITE_CREATE if create else _SQLITE_DROP
    if connection.vendor == "postgresql":
        return _POSTGRES_CREATE if create else _POSTGRES_DROP
    raise ImproperlyConfigured(f"No append-only triggers for database vendor {connection.vendor!r}")


def create_triggers(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in _statements(connection, create=True):
            cursor.execute(sql)


def drop_triggers(connection: BaseDatabaseWrapper) -> None:
    with connection.cursor() as cursor:
        for sql in _statements(connection, create=False):
            cursor.execute(sql)


@contextmanager
def triggers_suspended(connection: BaseDatabaseWrapper) -> Iterator[None]:
    """Maintenance only (flush, tests that tamper on purpose): drop, yield, always recreate.

    Run it inside a transaction so other connections never see the table unprotected
    (both SQLite and PostgreSQL roll DDL back and forth transactionally).
    """
    drop_triggers(connection)
    try:
        yield
    finally:
        create_triggers(connection)
