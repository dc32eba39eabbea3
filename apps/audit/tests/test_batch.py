"""audit_record_batch: the events a set-based change writes in one bulk insert are the ones audit_record would
write one by one (same payloads after the JSON round trip and minimization), linked in one chain that verifies."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction

from apps.audit.hashing import compute_event_hash, to_json_safe
from apps.audit.keys import configured_keys
from apps.audit.models import AuditEvent
from apps.audit.services import AuditEntry, AuditOutsideTransactionError, audit_record, audit_record_batch
from apps.tenancy.models import Municipality


class Color(models.TextChoices):
    RED = "red", "Vermelho"


PAYLOADS: list[Any] = [
    None,
    {"state": "active", "valid_until": dt.date(2030, 1, 2), "n": 3, "ok": True, "gone": None},
    {"nested": {"when": dt.datetime(2030, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)}, "price": Decimal("1.50")},
    {"list": [dt.date(2030, 1, 1), ("a", 1)], "color": Color.RED, 7: "int key", "ratio": 0.25},
    {"cpf": "123.456.789-09", "email": "maria@example.com", "birth_date": dt.date(1980, 5, 6)},
]


@pytest.mark.parametrize("value", PAYLOADS)
def test_to_json_safe_is_the_json_round_trip(value: Any) -> None:
    expected = None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))
    assert to_json_safe(value) == expected
    assert json.dumps(to_json_safe(value)) == json.dumps(expected)  # same types, same key order


@pytest.mark.django_db
def test_a_batch_stores_what_audit_record_would_and_the_chain_verifies(olimpia: Municipality) -> None:
    with transaction.atomic():
        single = [
            audit_record(
                actor=None, municipality=olimpia, action="test.one", object_type="t", before=p, after=p
            )
            for p in PAYLOADS
        ]
    first = AuditEvent.objects.filter(chain=olimpia.ibge_code).order_by("-seq").first()
    assert first is not None
    with transaction.atomic():
        written = audit_record_batch(
            actor=None,
            municipality=olimpia,
            entries=(AuditEntry("test.batch", "t", str(n), p, p) for n, p in enumerate(PAYLOADS)),
        )
    assert written == len(PAYLOADS)
    batch = list(AuditEvent.objects.filter(action="test.batch").order_by("seq"))
    assert [e.seq for e in batch] == list(range(first.seq + 1, first.seq + 1 + len(PAYLOADS)))
    assert batch[0].prev_hash == first.hash
    assert all(b.prev_hash == a.hash for a, b in zip(batch, batch[1:], strict=False))
    assert all(e.hash == compute_event_hash(e, configured_keys()) for e in batch)
    assert [(e.before, e.after) for e in batch] == [(e.before, e.after) for e in single]
    assert batch[4].after is not None and batch[4].after["cpf"] == "***.456.789-**"
    assert all(e.actor_name == "sistema" and e.municipality_id == olimpia.pk for e in batch)
    call_command("audit_verify")  # raises CommandError on a broken link


@pytest.mark.django_db(transaction=True)
def test_a_batch_needs_the_callers_transaction(olimpia: Municipality) -> None:
    with pytest.raises(AuditOutsideTransactionError):
        audit_record_batch(actor=None, municipality=olimpia, entries=[AuditEntry("test", "t", "1")])
