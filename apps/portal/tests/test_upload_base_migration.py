"""A renewed copy (portal) and a regularization's proof (dueprocess) move onto the StoredUpload base keeping
their file, hash and sender; the copy's upload time is the day it was sent, and a pending proof follows its
field."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from apps.accounts.models import User
from apps.enforcement.models import InfractionCase
from apps.licensing.casebook import Case
from apps.portal.models import PortalAccount
from apps.registry.models import Document

BEFORE = [("portal", "0005_remove_appealattachment"), ("dueprocess", "0006_appealattachment_uploaded_by")]
AFTER = [("portal", "0006_submission_stored_upload"), ("dueprocess", "0007_regularization_stored_upload")]
SUBMISSION = "submissions/3533908/2026/0123456789abcdef0123456789abcdef.pdf"
PROOF = "dueprocess/3533908/1/regularizacao-0123456789abcdef.pdf"
SENT_ON = dt.date(2026, 3, 16)


def _migrate(targets: list[tuple[str, str]]):  # type: ignore[no-untyped-def]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _file_fields(row) -> tuple[str, str, int, str]:  # type: ignore[no-untyped-def]
    return row.file.name, row.content_type, row.size_bytes, row.sha256


@pytest.mark.django_db(transaction=True)
def test_the_copy_and_the_proof_keep_their_file_and_sender_on_the_base(
    alice: PortalAccount,
    alice_case: Case,
    agent_olimpia: User,
    make_case: Callable[..., InfractionCase],
) -> None:
    auto = make_case(alice_case, dt.date(2026, 3, 12))
    crlv = Document.objects.get(vehicle=alice_case.vehicle, kind="crlv")
    old = _migrate(BEFORE)
    old.get_model("portal", "DocumentSubmission").objects.create(
        municipality_id=crlv.municipality_id,
        renews_id=crlv.pk,
        file=SUBMISSION,
        content_type="application/pdf",
        size_bytes=1234,
        sha256="a" * 64,
        issue_date=SENT_ON,
        submitted_by_id=alice.user_id,
        submitted_on=SENT_ON,
    )
    old.get_model("dueprocess", "Regularization").objects.create(
        case_id=auto.pk,
        regularized_on=SENT_ON,
        description="Tacógrafo",
        evidence=PROOF,
        content_type="application/pdf",
        extension=".pdf",
        size_bytes=99,
        sha256="b" * 64,
        recorded_by_id=agent_olimpia.pk,
    )
    old.get_model("ops", "PendingFile").objects.create(
        field="dueprocess.regularization.evidence",
        name=PROOF,
        content=b"%PDF-",
        sha256="b" * 64,
        size=5,
        next_attempt_at=timezone.now(),
    )
    try:
        new = _migrate(AFTER)
        copy = new.get_model("portal", "DocumentSubmission").objects.get(renews_id=crlv.pk)
        assert _file_fields(copy) == (SUBMISSION, "application/pdf", 1234, "a" * 64)
        assert copy.uploaded_by_id == alice.user_id
        sao_paulo = zoneinfo.ZoneInfo("America/Sao_Paulo")
        assert copy.uploaded_at == dt.datetime.combine(SENT_ON, dt.time.min, tzinfo=sao_paulo)
        proof = new.get_model("dueprocess", "Regularization").objects.get(case_id=auto.pk)
        assert _file_fields(proof) == (PROOF, "application/pdf", 99, "b" * 64)
        assert proof.uploaded_by_id == agent_olimpia.pk and proof.uploaded_at is not None
        assert (
            new.get_model("ops", "PendingFile").objects.get(name=PROOF).field
            == "dueprocess.regularization.file"
        )

        back = _migrate(BEFORE)
        restored = back.get_model("dueprocess", "Regularization").objects.get(case_id=auto.pk)
        assert (restored.evidence.name, restored.recorded_by_id) == (PROOF, agent_olimpia.pk)
        assert back.get_model("portal", "DocumentSubmission").objects.get().submitted_by_id == alice.user_id
        assert (
            back.get_model("ops", "PendingFile").objects.get().field == "dueprocess.regularization.evidence"
        )
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
