"""BatchSigner and FlatPayloads. The template-filled canonical text signs every event exactly as keyed_event_hash
does, whatever its payload's shape (personal fields after minimization, non-ASCII, nesting, floats, empty and
absent values); the payloads a batch skips minimize for are the ones minimize would give back unchanged."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from decimal import Decimal
from enum import IntEnum
from typing import Any

import pytest

from apps.audit.hashing import (
    BatchSigner,
    canonical_bytes,
    canonical_timestamp,
    keyed_event_hash,
    to_json_safe,
)
from apps.audit.keys import AuditKeys
from apps.audit.minimization import FlatPayloads, minimize

KEYS = AuditKeys(keys={"k1": "k" * 32}, current_id="k1")
SECRET = KEYS.current_secret

PAYLOADS: list[Any] = [
    None,
    {},
    {"state": "active", "valid_until": "2030-01-02", "n": 3, "ok": True, "gone": None},
    {"days_before": 30, "expires_on": "2030-01-02", "mail_queued": False},
    {"nome": "João D'Ávila «Zé»", "obs": 'aspas "duplas" \\ barra\n\ttab', "emoji": "🚕", "ctl": "\x00\x1f"},
    {"nested": {"b": [1, 2.5, {"z": None, "a": "ç"}], "a": {}}, "list": [[], [None, True]], "ratio": 1e-7},
    {
        "cpf": "123.456.789-09",
        "email": "maria@example.com",
        "birth_date": "1980-05-06",
        "address": "Rua Á, 1",
    },
    {"owner": {"cpf": "98765432100", "phone": "+55 17 99999-0000"}, "rows": [{"street": "Rua B"}]},
    {"z": 1, "a": 2, "M": 3, "é": 4, "10": 5, "9": 6, "": 7},
    {"big": 10**30, "neg": -1, "float": 0.1 + 0.2, "inf_like": 1.7976931348623157e308},
]

SHARED_FIELDS: list[dict[str, Any]] = [
    {
        "chain": "3533908",
        "occurred_at": canonical_timestamp(dt.datetime(2030, 1, 2, 3, 4, 5, 6, tzinfo=dt.UTC)),
        "municipality_id": 7,
        "actor_id": None,
        "actor_name": "sistema",
        "request_id": "",
    },
    {
        "chain": "global",
        "occurred_at": "2030-01-02T03:04:05.000000Z",
        "municipality_id": None,
        "actor_id": 12,
        "actor_name": 'Ana Ção "fiscal" \ue000slot\ue000before',  # holds the template's mark: the plain way
        "request_id": "req-ü",
    },
]


@pytest.mark.parametrize("shared", SHARED_FIELDS)
@pytest.mark.parametrize("before", PAYLOADS)
@pytest.mark.parametrize("after", PAYLOADS)
def test_the_batch_signature_is_keyed_event_hash(shared: dict[str, Any], before: Any, after: Any) -> None:
    before, after = minimize(before, after, KEYS)  # what the batch signs: the minimized payloads
    signer = BatchSigner(shared, key_id="k1", secret=SECRET)
    for seq, object_id, prev_hash in ((1, "42", ""), (10**6, "ção/7", "ab" * 32)):
        event = dict(shared, seq=seq, action="permit.expire", object_type="licensing.permit")
        event.update(object_id=object_id, before=before, after=after)
        signed, before_text, after_text = signer.sign(
            seq=seq,
            action="permit.expire",
            object_type="licensing.permit",
            object_id=object_id,
            before=before,
            after=after,
            prev_hash=prev_hash,
        )
        assert signed == keyed_event_hash(event, prev_hash, key_id="k1", secret=SECRET)
        assert before_text.encode() == canonical_bytes(before)
        assert after_text.encode() == canonical_bytes(after)


def test_the_message_signed_is_the_canonical_bytes() -> None:
    """Not only the same digest by the same key: the same bytes (a digest could hide a shared wrong key)."""
    shared = SHARED_FIELDS[0]
    payload = dict(shared, seq=3, action="a", object_type="t", object_id="1", before=None, after=PAYLOADS[4])
    payload.update(prev_hash="ff", hash_scheme="hmac-sha256", key_id="k1")
    signed, _, _ = BatchSigner(shared, key_id="k1", secret=SECRET).sign(
        seq=3, action="a", object_type="t", object_id="1", before=None, after=PAYLOADS[4], prev_hash="ff"
    )
    assert signed == hmac.new(SECRET, canonical_bytes(payload), hashlib.sha256).hexdigest()


class Level(IntEnum):
    HIGH = 2


FLAT_CASES: list[tuple[Any, bool]] = [
    (None, True),
    ({}, True),
    ({"state": "active", "n": 3, "ok": True, "gone": None, "r": 0.5, "ç": "São"}, True),
    ({"days_before": 30, "expires_on": "2030-01-02", "mail_queued": False}, True),
    ({"valid_until": dt.date(2030, 1, 2)}, False),  # a date becomes text
    ({"level": Level.HIGH}, False),  # an enum member becomes its value
    ({"price": Decimal("1.50")}, False),
    ({7: "int key"}, False),
    ({"nested": {"a": 1}}, False),
    ({"list": [1]}, False),
    ({"cpf": "123.456.789-09"}, False),
    ({"email": ""}, False),
    ({"state": "x", "birth_date": None}, False),
    ([1, 2], False),
]


@pytest.mark.parametrize(("value", "flat"), FLAT_CASES)
def test_a_flat_payload_is_what_minimize_would_give_back(value: Any, flat: bool) -> None:
    payloads = FlatPayloads()
    for _ in range(2):  # the key set judged, then remembered
        assert payloads.unchanged(value) is flat
    if flat:
        before, after = minimize(to_json_safe(value), to_json_safe(value), KEYS)
        assert before == after == value
        assert json.dumps(after) == json.dumps(value)  # same key order, same types


def test_the_values_are_checked_for_every_payload_of_a_known_key_set() -> None:
    payloads = FlatPayloads()
    assert payloads.unchanged({"when": "2030-01-02"})
    assert not payloads.unchanged({"when": dt.date(2030, 1, 2)})
