"""LGPD art. 6º III: CPF and birth date never reach the audit trail in clear; a change is still visible."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.db import transaction

from apps.audit.keys import configured_keys
from apps.audit.minimization import CHANGED_KEY, mask_cpf, minimize
from apps.audit.models import AuditEvent
from apps.audit.services import audit_record
from apps.registry.services import person_create, person_update
from apps.tenancy.models import Municipality

AS_OF = dt.date(2026, 3, 2)
CPF, OTHER_CPF = "52998224725", "11144477735"


def test_it_masks_a_cpf_to_its_middle_digits() -> None:
    assert mask_cpf("529.982.247-25") == "***.982.247-**"


def test_it_hashes_with_the_key_removes_birth_dates_and_lists_what_changed() -> None:
    keys = configured_keys()
    before, after = minimize(
        {
            "cpf": CPF,
            "birth_date": "1980-01-01",
            "phone": "17999990000",
            "name": "Ana",
            "nested": {"cpf": CPF},
        },
        {
            "cpf": CPF,
            "birth_date": "1981-01-01",
            "phone": "17988880000",
            "name": "Ana",
            "nested": {"cpf": CPF},
        },
        keys,
    )
    assert before is not None and after is not None
    assert "birth_date" not in before and "birth_date" not in after
    assert after["cpf"] == "***.982.247-**" and after["nested"] == {"cpf": "***.982.247-**"}
    assert before["phone"].startswith(f"hmac:{keys.current_id}:") and before["phone"] != after["phone"]
    assert after["name"] == "Ana"  # names identify whom the record is about; they are not minimized
    assert after[CHANGED_KEY] == ["birth_date", "phone"]


def test_it_keeps_a_company_cnpj_and_empty_values() -> None:
    _, after = minimize(None, {"owner_document": "11222333000181", "phone": ""}, configured_keys())
    assert after == {"owner_document": "11222333000181", "phone": ""}


@pytest.mark.django_db
def test_person_events_never_hold_the_cpf_or_birth_date_in_clear(olimpia: Municipality) -> None:
    person = person_create(
        actor=None,
        municipality=olimpia,
        cpf=CPF,
        name="João da Silva",
        birth_date=dt.date(1980, 5, 17),
        as_of=AS_OF,
    )
    person_update(
        actor=None, person=person, name="João da Silva", birth_date=dt.date(1981, 6, 18), as_of=AS_OF
    )
    events = AuditEvent.objects.filter(object_type="registry.person", object_id=str(person.pk)).order_by(
        "seq"
    )
    stored = json.dumps([[e.before, e.after] for e in events])
    for secret in (CPF, "529.982.247-25", "1980-05-17", "1981-06-18", "17/05/1980"):
        assert secret not in stored
    update = events.get(action="registry.person.update")
    assert update.after == {
        "cpf": "***.982.247-**",
        "name": "João da Silva",
        "email": "",
        "phone": "",
        "address": "",
        "city": "",
        CHANGED_KEY: ["birth_date"],
    }


@pytest.mark.django_db
def test_every_audit_record_caller_is_minimized(olimpia: Municipality) -> None:
    with transaction.atomic():
        event = audit_record(
            actor=None,
            municipality=olimpia,
            action="test.any",
            obj=olimpia,
            before={"holder_document": OTHER_CPF},
            after={"holder_document": CPF},
        )
    assert (event.before, event.after) == (
        {"holder_document": "***.444.777-**"},
        {"holder_document": "***.982.247-**", CHANGED_KEY: ["holder_document"]},
    )
