"""Facts from dicts: precise errors, conversions, and the JSON-safe inverse."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from lawcode.errors import InvalidFactError, MissingFactError
from lawcode.facts import (
    Document,
    FineFacts,
    Operator,
    PermitApplication,
    TripFacts,
    from_dict,
    to_dict,
)

APPLICATION = {
    "operator": {
        "kind": "PF",
        "person": {
            "name": "Ana",
            "birth_date": "1980-05-02",
            "cnh": {"category": "D", "ear": True, "first_issue": "2001-01-01"},
            "documents": [{"kind": "criminal_record_certificate", "issue_date": "2026-01-10"}],
            "traffic_infractions": [{"date": "2025-07-01", "severity": "gravissima"}],
        },
        "history": [
            {"infraction_code": "OLI-23-I", "infraction_date": "2025-10-01", "final_on": "2025-11-01"}
        ],
    },
    "vehicle": {
        "plate": "ABC1D23",
        "manufacture_year": 2012,
        "ownership": {"kind": "comodato", "renavam_link": True},
    },
    "drivers": [{"person": {"name": "Bia"}, "role": "auxiliary"}],
    "kind": "renewal",
}


def test_builds_nested_facts_with_dates_and_tuples() -> None:
    facts = from_dict(PermitApplication, APPLICATION)
    person = facts.operator.person
    assert person is not None and person.birth_date == dt.date(1980, 5, 2)
    assert person.cnh is not None and person.cnh.first_issue == dt.date(2001, 1, 1)
    assert person.traffic_infractions is not None
    assert person.traffic_infractions[0].severity == "gravissima"
    assert facts.operator.history[0].final_on == dt.date(2025, 11, 1)
    assert facts.drivers[0].role == "auxiliary" and facts.kind == "renewal"
    assert person.document("criminal_record_certificate") is not None


def test_to_dict_is_json_safe_and_inverts_from_dict() -> None:
    facts = from_dict(PermitApplication, APPLICATION)
    data = to_dict(facts)
    assert data["operator"]["person"]["birth_date"] == "1980-05-02"
    assert from_dict(PermitApplication, data) == facts


def test_missing_required_field_names_its_path() -> None:
    with pytest.raises(MissingFactError) as error:
        from_dict(
            PermitApplication,
            {"operator": {"kind": "PF", "person": {"cnh": {"ear": True}}}, "vehicle": {}},
            where="cenário x",
        )
    assert error.value.field_path == "operator.person.cnh.category"
    assert "cenário x" in error.value.message


def test_wrong_types_and_values_name_the_field() -> None:
    cases = [
        ({"kind": "PF", "active_permits": "two"}, "active_permits"),
        ({"kind": "PF", "person": {"birth_date": "02/05/1980"}}, "person.birth_date"),
        ({"kind": "PF", "person": {"cnh": {"category": "D", "ear": "yes"}}}, "person.cnh.ear"),
        ({"kind": "PF", "bans": {"reason_code": "x"}}, "bans"),
        ({"kind": "pf"}, "kind"),
    ]
    for data, path in cases:
        with pytest.raises(InvalidFactError) as error:
            from_dict(Operator, data)
        assert error.value.field_path == path, data


def test_unknown_key_is_rejected_with_the_allowed_fields() -> None:
    with pytest.raises(InvalidFactError) as error:
        from_dict(Operator, {"kind": "PF", "actve_permits": 1})
    assert error.value.field_path == "actve_permits" and "active_permits" in error.value.message


def test_decimal_time_and_yaml_sexagesimal_time() -> None:
    fine = from_dict(FineFacts, {"quantity": 15, "unit": "ufesp", "infraction_date": dt.date(2026, 1, 5)})
    assert fine.quantity == Decimal("15")
    trip = from_dict(TripFacts, {"start_time": "06:00", "end_time": 1380, "within_urban_perimeter": True})
    assert trip.start_time == dt.time(6, 0) and trip.end_time == dt.time(23, 0)


def test_document_kind_is_open_in_the_facts_and_checked_by_the_regime() -> None:
    # Any kind can be stated; the regime's documents.yaml decides (test_vocabulary covers the refusal).
    assert Document(kind="medical_certificate").kind == "medical_certificate"


def test_json_safe_is_deterministic_for_sets_and_mappings() -> None:
    from lawcode.jsonsafe import json_safe

    value = {"b": {3, 1, 2}, "a": (dt.date(2026, 1, 2), Decimal("1.50"))}
    assert json_safe(value) == {"a": ["2026-01-02", "1.50"], "b": [1, 2, 3]}
    assert list(json_safe(value)) == ["a", "b"]
