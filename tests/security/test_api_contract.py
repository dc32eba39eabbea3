"""The OpenAPI schema says what the API answers and accepts (issue 28, item 7): the values Schemathesis found
outside it are now inside it, and the platform API states its limits. (tests/test_api_schemathesis.py checks
every response against the schema; this holds the fixes it found.)"""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    generated: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return generated


def _component(schema: dict[str, Any], name: str) -> dict[str, Any]:
    return schema["components"]["schemas"][name]  # type: ignore[no-any-return]


def test_a_sanction_without_guide_and_an_effect_without_permit_are_nullable(schema: dict[str, Any]) -> None:
    assert _component(schema, "Sanction")["properties"]["guide_number"]["nullable"] is True
    assert _component(schema, "Effect")["properties"]["permit_number"]["nullable"] is True


def test_a_guide_that_is_no_fee_has_a_blank_fee_kind_in_the_schema(schema: dict[str, Any]) -> None:
    fee_kind = _component(schema, "PaymentGuide")["properties"]["fee_kind"]
    refs = [option.get("$ref", "") for option in fee_kind.get("oneOf", [])]
    assert any(ref.endswith("/BlankEnum") for ref in refs), fee_kind
    assert _component(schema, "BlankEnum")["enum"] == [""]


def test_the_inspection_calendar_is_an_array(schema: dict[str, Any]) -> None:
    answer = schema["paths"]["/api/v1/inspections/inspections/calendar/"]["get"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"]["type"] == "array"


def test_the_platform_api_states_its_limits(schema: dict[str, Any]) -> None:
    feed = schema["paths"]["/api/v1/platform/{ibge_code}/changes/"]["get"]["parameters"]
    assert {p["name"]: p["schema"].get("minimum") for p in feed if p["in"] == "query"} == {
        "limit": 0,
        "since": 0,
    }
    check = _component(schema, "CheckRequest")["properties"]
    assert check["drivers"]["minItems"] == 1 and check["vehicles"]["minItems"] == 1
    substitution = _component(schema, "SubstitutionRequest")["properties"]
    for field in ("driver_cpf", "substitute_plate", "substitute_make_model", "rental_company", "reason"):
        assert substitution[field]["minLength"] == 1, field
    upload = _component(schema, "RosterUpload")["properties"]["file"]
    assert upload == {"type": "string", "format": "binary", "description": upload["description"]}
