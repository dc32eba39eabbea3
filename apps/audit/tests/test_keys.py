"""The audit key ring: outside the database, rotatable, and mandatory in production."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from apps.audit.hashing import hashed_fields, legacy_event_hash
from apps.audit.keys import DEVELOPMENT_KEY, AuditKeys, load_audit_keys
from apps.audit.models import GLOBAL_CHAIN, AuditEvent, HashScheme
from apps.audit.services import audit_record
from apps.audit.tests.tampering import run
from apps.tenancy.models import Municipality

KEY_A = "a" * 40
KEY_B = "b" * 40
ROOT = Path(__file__).resolve().parents[3]


def test_it_reads_id_key_pairs_and_takes_the_last_as_current() -> None:
    keys = load_audit_keys({"AUDIT_HMAC_KEYS": f"2025:{KEY_A}, 2026:{KEY_B}"}, debug=False)
    assert keys.keys == {"2025": KEY_A, "2026": KEY_B} and keys.current_id == "2026"


def test_it_reads_a_key_file_and_an_explicit_current_id(tmp_path: Path) -> None:
    key_file = tmp_path / "audit.keys"
    key_file.write_text(f"# rotated 2026-01\n2025:{KEY_A}\n2026:{KEY_B}\n")
    keys = load_audit_keys({"AUDIT_HMAC_KEYS_FILE": str(key_file), "AUDIT_HMAC_KEY_ID": "2025"}, debug=False)
    assert keys.current_id == "2025" and keys.secret("2026") == KEY_B.encode()


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "AUDIT_HMAC_KEYS is not set"),
        ({"AUDIT_HMAC_KEYS": f"dev:{DEVELOPMENT_KEY}"}, "public development key"),
        ({"AUDIT_HMAC_KEYS": "k1:short"}, "shorter than 32 characters"),
        ({"AUDIT_HMAC_KEYS": KEY_A}, "each entry must be <id>:<key>"),
        ({"AUDIT_HMAC_KEYS": f"k:{KEY_A},k:{KEY_B}"}, "appears twice"),
        (
            {"AUDIT_HMAC_KEYS": f"k:{KEY_A}", "AUDIT_HMAC_KEY_ID": "x"},
            "is not among the configured audit keys",
        ),
        ({"AUDIT_HMAC_KEYS_FILE": "/nonexistent/audit.keys"}, "AUDIT_HMAC_KEYS_FILE cannot be read"),
    ],
)
def test_production_refuses_a_missing_or_weak_key(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=message):
        load_audit_keys(environ, debug=False)


def test_debug_falls_back_to_the_development_key() -> None:
    assert load_audit_keys({}, debug=True).current_secret == DEVELOPMENT_KEY.encode()


def test_settings_refuse_to_start_without_the_key_in_production(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AUDIT_", "DJANGO_SETTINGS"))}
    env.update(
        DEBUG="0", SECRET_KEY="t3st-" + "x" * 50, ALLOWED_HOSTS="x.gov.br", OUTORGA_VAR_DIR=str(tmp_path)
    )
    result = subprocess.run(
        [sys.executable, "-c", "import outorga.settings"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "AUDIT_HMAC_KEYS is not set" in result.stderr


def _legacy_event(seq: int, prev_hash: str) -> AuditEvent:
    """An event as written before the keyed chain (plain SHA-256, no key id)."""
    from django.utils import timezone

    event = AuditEvent(
        occurred_at=timezone.now(),
        chain=GLOBAL_CHAIN,
        seq=seq,
        actor_name="sistema",
        action="legacy.event",
        object_type="tenancy.municipality",
        object_id="1",
        after={"n": seq},
        prev_hash=prev_hash,
        hash_scheme=HashScheme.LEGACY_SHA256,
        key_id="",
    )
    event.hash = legacy_event_hash(hashed_fields(event), prev_hash)
    event.save(force_insert=True)
    return event


@pytest.mark.django_db
def test_legacy_sha256_events_still_verify_and_keyed_events_follow_them(settings: Any) -> None:
    settings.AUDIT_LEGACY_EVENTS = {"global": 2}  # declared outside the database: the two old keyless events
    first = _legacy_event(1, "")
    second = _legacy_event(2, first.hash)
    with transaction.atomic():
        keyed = audit_record(
            actor=None, municipality=None, action="test.keyed", object_type="x.y", object_id="1"
        )
    assert keyed.prev_hash == second.hash and keyed.hash_scheme == HashScheme.HMAC_SHA256
    output, ok = run("audit_verify")
    assert ok, output
    assert "OK      chain global: 3 event(s)" in output


@pytest.mark.django_db
def test_rotation_signs_new_events_with_the_new_key_and_verifies_old_ones(
    olimpia: Municipality, settings: Any
) -> None:
    dev = dict(settings.AUDIT_KEYS.keys)  # olimpia's creation event was signed with the development key
    settings.AUDIT_KEYS = AuditKeys(keys={**dev, "2025": KEY_A}, current_id="2025")
    with transaction.atomic():
        old = audit_record(actor=None, municipality=olimpia, action="test.old", obj=olimpia)
    settings.AUDIT_KEYS = AuditKeys(keys={**dev, "2025": KEY_A, "2026": KEY_B}, current_id="2026")
    with transaction.atomic():
        new = audit_record(actor=None, municipality=olimpia, action="test.new", obj=olimpia)
    assert (old.key_id, new.key_id) == ("2025", "2026")
    assert run("audit_verify", "--municipality", "3533908")[1]
    # The first event (written under the development key) and the 2025 ones need their keys kept.
    settings.AUDIT_KEYS = AuditKeys(keys={"2026": KEY_B}, current_id="2026")
    output, ok = run("audit_verify", "--municipality", "3533908")
    assert not ok
    assert "seq=1: unknown audit key id (configure the old key)" in output and "found 'dev'" in output


@pytest.mark.django_db
def test_the_same_event_under_another_key_does_not_verify(olimpia: Municipality, settings: Any) -> None:
    # A forger with database access but another key (e.g. the public development key) cannot re-sign.
    settings.AUDIT_KEYS = AuditKeys(keys={"dev": KEY_A}, current_id="dev")
    output, ok = run("audit_verify", "--municipality", "3533908")
    assert not ok
    assert "seq=1: hash mismatch" in output
