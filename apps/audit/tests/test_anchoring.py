"""The three attacks of issue 10 on a chain whose triggers the table owner switched off, against checkpoints.

Each attack leaves a chain that links up by itself (so only the checkpoint written before it can tell), and
`audit_verify` must fail naming the chain; an untouched chain must pass. Runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from django.core import mail
from django.db import transaction

from apps.audit.models import AuditEvent
from apps.audit.services import audit_record
from apps.audit.tests.tampering import rehash_from, run, tamper
from apps.jobs.choices import RunStatus
from apps.jobs.models import JobRun
from apps.jobs.schedule import Every, job_named
from apps.jobs.services import job_run_execute
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db

CHAIN = "3533908"


@pytest.fixture
def anchored(olimpia: Municipality, _checkpoints_in_tmp: Path) -> Path:
    """Olímpia's chain with 5 events, anchored at its head."""
    with transaction.atomic():
        for number in range(4):
            audit_record(actor=None, municipality=olimpia, action=f"test.{number}", obj=olimpia)
    output, ok = run("audit_anchor")
    assert ok, output
    assert f"chain {CHAIN}: seq 5" in output
    return _checkpoints_in_tmp


def no_checkpoints(tmp_path: Path) -> str:
    empty = tmp_path / "no-checkpoints"
    empty.mkdir()
    return str(empty)


def test_an_untouched_anchored_chain_passes(anchored: Path, olimpia: Municipality) -> None:
    with transaction.atomic():
        audit_record(actor=None, municipality=olimpia, action="test.after_anchor", obj=olimpia)
    output, ok = run("audit_verify")
    assert ok, output
    assert f"OK      chain {CHAIN}: 6 event(s), checkpointed up to seq 5" in output
    assert "1 checkpoint file(s)" in output


def test_it_detects_a_deleted_tail(anchored: Path, tmp_path: Path) -> None:
    tamper("DELETE FROM audit_auditevent WHERE chain = %s AND seq >= 4", [CHAIN])
    assert run("audit_verify", "--checkpoints", no_checkpoints(tmp_path))[1]  # the chain alone still links up
    output, ok = run("audit_verify")
    assert not ok
    assert f"BROKEN  chain {CHAIN}: seq=5: events missing: checkpoint checkpoint-" in output
    assert "records seq 5, the chain ends at seq 3" in output


def test_it_detects_a_truncated_chain(anchored: Path, tmp_path: Path) -> None:
    tamper("DELETE FROM audit_auditevent WHERE chain = %s", [CHAIN])
    assert not AuditEvent.objects.filter(chain=CHAIN).exists()
    assert run("audit_verify", "--checkpoints", no_checkpoints(tmp_path))[1]
    output, ok = run("audit_verify")
    assert not ok
    assert f"BROKEN  chain {CHAIN}: seq=5: events missing" in output and "the chain ends at seq 0" in output


def test_it_detects_an_edited_event_with_the_rest_rehashed_with_the_key(
    anchored: Path, tmp_path: Path
) -> None:
    victim = AuditEvent.objects.get(chain=CHAIN, seq=2)
    tamper("UPDATE audit_auditevent SET actor_name = %s WHERE id = %s", ["forger", victim.pk])
    rehash_from(CHAIN, 2)
    assert run("audit_verify", "--checkpoints", no_checkpoints(tmp_path))[1]  # links up perfectly
    output, ok = run("audit_verify")
    assert not ok
    head = AuditEvent.objects.get(chain=CHAIN, seq=5)
    assert f"BROKEN  chain {CHAIN}: event id={head.pk} seq=5: differs from checkpoint checkpoint-" in output


def test_it_detects_a_chain_rehashed_without_the_key(anchored: Path, tmp_path: Path) -> None:
    # Without the key a forger can only fall back to keyless SHA-256 for the whole chain.
    tamper("UPDATE audit_auditevent SET actor_name = %s WHERE chain = %s AND seq = 1", ["forger", CHAIN])
    rehash_from(CHAIN, 1, keyless=True)
    output, ok = run("audit_verify")
    assert not ok
    # Keyless where the keyed scheme is configured is refused at once, checkpoint or not (issue 28).
    assert (
        f"BROKEN  chain {CHAIN}: event id=" in output and "seq=1: keyless hash where a keyed scheme" in output
    )


def test_keyless_events_after_keyed_ones_are_a_downgrade(olimpia: Municipality) -> None:
    with transaction.atomic():
        audit_record(actor=None, municipality=olimpia, action="test.second", obj=olimpia)
    tamper("UPDATE audit_auditevent SET actor_name = %s WHERE chain = %s AND seq = 2", ["forger", CHAIN])
    rehash_from(CHAIN, 2, keyless=True)
    output, ok = run("audit_verify")
    assert not ok
    assert "seq=2: keyless hash where a keyed scheme is configured" in output


def test_it_refuses_an_edited_checkpoint(anchored: Path) -> None:
    path = next(anchored.glob("checkpoint-*.json"))
    document = json.loads(path.read_text())
    document["heads"][0]["seq"] = 1
    os.chmod(path, 0o644)
    path.write_text(json.dumps(document))
    output, ok = run("audit_verify")
    assert not ok
    assert f"BROKEN  checkpoint {path.name}: signature does not match" in output


def test_it_writes_read_only_files_and_never_overwrites_one(anchored: Path) -> None:
    assert run("audit_anchor")[1]
    files = sorted(anchored.glob("checkpoint-*.json"))
    assert len(files) == 2
    assert all(not (f.stat().st_mode & stat.S_IWUSR) for f in files)
    document = json.loads(files[0].read_text())
    assert set(document) == {"format", "created_at", "key_id", "heads", "signature"}
    assert {k: document["heads"][0][k] for k in ("chain", "seq")} == {"chain": CHAIN, "seq": 5}


def test_it_refuses_to_anchor_a_broken_chain(anchored: Path) -> None:
    tamper("DELETE FROM audit_auditevent WHERE chain = %s AND seq = 5", [CHAIN])
    output, ok = run("audit_anchor")
    assert not ok
    assert f"Not anchoring: verification fails ({CHAIN})" in output
    assert len(list(anchored.glob("checkpoint-*.json"))) == 1


def test_it_mails_the_checkpoint_to_the_auditors(olimpia: Municipality, settings: object) -> None:
    settings.AUDIT_CHECKPOINT_RECIPIENTS = ["auditoria@olimpia.sp.gov.br"]  # type: ignore[attr-defined]
    output, ok = run("audit_anchor")
    assert ok, output
    (message,) = mail.outbox
    assert message.to == ["auditoria@olimpia.sp.gov.br"]
    assert "Ponto de verificação" in message.subject
    name, content, mimetype = message.attachments[0]
    assert name.startswith("checkpoint-") and mimetype == "application/json"
    assert json.loads(content)["heads"][0]["chain"] == CHAIN


def test_the_scheduler_anchors_every_hour(olimpia: Municipality, _checkpoints_in_tmp: Path) -> None:
    assert job_named("audit_anchor").when == Every(60)
    run = JobRun.objects.create(job="audit_anchor", slot="x")
    assert job_run_execute(run_id=run.pk).status == RunStatus.DONE
    assert len(list(_checkpoints_in_tmp.glob("checkpoint-*.json"))) == 1
