"""Events written before the keyed chain still verify after migration audit.0003 (and keyed ones follow)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from apps.audit.hashing import hashed_fields, legacy_event_hash
from apps.audit.models import GLOBAL_CHAIN, AuditEvent, HashScheme
from apps.audit.services import audit_record
from apps.audit.tests.tampering import run

BEFORE_KEYS = [("audit", "0002_append_only_triggers")]


def _latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes() if key[0] == "audit"]


def _write_legacy_events(executor: MigrationExecutor) -> None:
    """Two events as the pre-0003 code wrote them, through the historical model (no scheme, no key id)."""
    old_model = executor.loader.project_state(BEFORE_KEYS[0]).apps.get_model("audit", "AuditEvent")
    previous = ""
    for seq in (1, 2):
        fields = SimpleNamespace(
            chain=GLOBAL_CHAIN,
            seq=seq,
            occurred_at=datetime(2026, 3, seq, 10, 0, tzinfo=UTC),
            municipality_id=None,
            actor_id=None,
            actor_name="sistema",
            action="legacy.event",
            object_type="tenancy.municipality",
            object_id="1",
            before=None,
            after={"n": seq},
            request_id="",
        )
        digest = legacy_event_hash(hashed_fields(fields), previous)
        old_model.objects.create(**vars(fields), prev_hash=previous, hash=digest)
        previous = digest


@pytest.mark.django_db(transaction=True)
def test_pre_keyed_events_are_marked_sha256_and_still_verify(settings: Any) -> None:
    settings.AUDIT_LEGACY_EVENTS = {GLOBAL_CHAIN: 2}  # the installation declares its two pre-key events
    latest = _latest()
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE_KEYS)
    try:
        with transaction.atomic():
            _write_legacy_events(MigrationExecutor(connection))
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert set(AuditEvent.objects.values_list("hash_scheme", "key_id")) == {(HashScheme.LEGACY_SHA256, "")}
    with transaction.atomic():
        audit_record(
            actor=None, municipality=None, action="test.after_migration", object_type="x.y", object_id="1"
        )
    output, ok = run("audit_verify")
    assert ok, output
    assert "OK      chain global: 3 event(s)" in output
    # The triggers are back after the migration rebuilt the table.
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        AuditEvent.objects.filter(seq=1).delete()
