"""The portal's appeal attachments move into dueprocess.AppealAttachment keeping file, hash, sender and time."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from apps.dueprocess.choices import Instance
from apps.enforcement.models import InfractionCase
from apps.licensing.casebook import Case
from apps.portal.models import PortalAccount
from apps.portal.services import portal_appeal_file

BEFORE = [
    ("portal", "0003_document_submissions"),
    ("dueprocess", "0006_appealattachment_uploaded_by"),
    ("ops", "0002_pending_and_published_files"),
]
AFTER = [("portal", "0005_remove_appealattachment")]
NAME = "appeals/3533908/2026/0123456789abcdef0123456789abcdef.pdf"
SENT_AT = dt.datetime(2026, 3, 16, 14, 30, tzinfo=dt.UTC)


def _migrate(targets: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_portal_attachments_become_dueprocess_attachments_and_back(
    alice: PortalAccount, alice_case: Case, make_case: Callable[..., InfractionCase]
) -> None:
    auto = make_case(alice_case, dt.date(2026, 3, 12))
    appeal = portal_appeal_file(
        account=alice, case=auto, instance=Instance.FIRST, text="Razões.", attachments=[], as_of=auto.drawn_on
    )
    old = _migrate(BEFORE)
    old.get_model("portal", "AppealAttachment").objects.create(
        municipality_id=auto.municipality_id,
        appeal_id=appeal.pk,
        file=NAME,
        content_type="application/pdf",
        size_bytes=1234,
        sha256="a" * 64,
        uploaded_by_id=alice.user_id,
    )
    old.get_model("portal", "AppealAttachment").objects.update(uploaded_at=SENT_AT)
    old.get_model("ops", "PendingFile").objects.create(
        field="portal.appealattachment.file",
        name=NAME,
        content=b"%PDF-",
        sha256="a" * 64,
        size=5,
        next_attempt_at=timezone.now(),
    )
    try:
        new = _migrate(AFTER)
        moved = new.get_model("dueprocess", "AppealAttachment").objects.get(appeal_id=appeal.pk)
        assert (moved.file.name, moved.sha256, moved.size_bytes, moved.extension) == (
            NAME,
            "a" * 64,
            1234,
            ".pdf",
        )
        assert moved.uploaded_by_id == alice.user_id and moved.uploaded_at == SENT_AT
        pending = new.get_model("ops", "PendingFile").objects.get(name=NAME)
        assert pending.field == "dueprocess.appealattachment.file"

        back = _migrate(BEFORE)
        restored = back.get_model("portal", "AppealAttachment").objects.get(appeal_id=appeal.pk)
        assert (restored.file.name, restored.uploaded_at, restored.municipality_id) == (
            NAME,
            SENT_AT,
            auto.municipality_id,
        )
        assert not back.get_model("dueprocess", "AppealAttachment").objects.exists()
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
