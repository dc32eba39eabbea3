"""Batch check: authorized today and until when, from permits only; bad items answered one by one."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from apps.licensing import services
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.platforms.checks import MAX_BATCH
from apps.platforms.tests.conftest import post_json, url
from apps.registry.identifiers import format_cpf
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
ALLOWED_KEYS = {
    "cpf",
    "plate",
    "authorized",
    "status",
    "valid_until",
    "suspended_until",
    "permit_number",
    "reason",
    "articles",
}


def check(api: Client, municipality: Municipality, **body: list[str]) -> Any:
    response = post_json(api, url(municipality.ibge_code, "checks/"), body)
    assert response.status_code == 200, response.content
    return response.json()


def test_an_authorized_driver_and_car_are_answered_with_validity(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit, driver_case: Case, today: dt.date
) -> None:
    answer = check(
        api,
        patrocinio,
        drivers=[format_cpf(driver_case.person.cpf)],
        vehicles=[patrocinio_permit.vehicle.plate],
    )
    driver, vehicle = answer["drivers"][0], answer["vehicles"][0]
    assert answer["checked_on"] == today.isoformat()
    for item in (driver, vehicle):
        assert item["authorized"] is True
        assert item["status"] == "regular"
        assert item["permit_number"] == patrocinio_permit.number
        assert item["valid_until"] == str(patrocinio_permit.valid_until)
        assert set(item) == ALLOWED_KEYS - ({"plate"} if "cpf" in item else {"cpf"})
    assert driver["cpf"] == driver_case.person.cpf


def test_a_suspended_permit_is_not_authorized_and_says_until_when(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    until = today + dt.timedelta(days=10)
    services.permit_suspend(
        permit=patrocinio_permit, actor=None, as_of=today, until=until, reason="Auto 1/2026"
    )
    vehicle = check(api, patrocinio, vehicles=[patrocinio_permit.vehicle.plate])["vehicles"][0]
    assert (vehicle["authorized"], vehicle["status"], vehicle["suspended_until"]) == (
        False,
        "suspended",
        until.isoformat(),
    )


def test_a_revoked_permit_is_not_authorized(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit, driver_case: Case, today: dt.date
) -> None:
    services.permit_revoke(permit=patrocinio_permit, actor=None, as_of=today, reason="Cassação")
    driver = check(api, patrocinio, drivers=[driver_case.person.cpf])["drivers"][0]
    assert (driver["authorized"], driver["status"]) == (False, "revoked")


def test_a_permit_past_validity_is_expired_before_the_sweep(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    lapsed = {"valid_from": today - dt.timedelta(days=400), "valid_until": today - dt.timedelta(days=1)}
    Permit.objects.filter(pk=patrocinio_permit.pk).update(**lapsed)
    vehicle = check(api, patrocinio, vehicles=[patrocinio_permit.vehicle.plate])["vehicles"][0]
    assert (vehicle["authorized"], vehicle["status"]) == (False, "expired")


def test_another_municipality_permit_is_unknown_here(
    api: Client, patrocinio: Municipality, olimpia: Municipality, today: dt.date
) -> None:
    from apps.licensing.casebook import pf_case
    from apps.platforms.tests.conftest import issue_permit

    olimpia_permit = issue_permit(pf_case(olimpia, 41, "Maria Souza", as_of=today), today)
    answer = check(
        api,
        patrocinio,
        drivers=[olimpia_permit.operator.person.cpf],  # type: ignore[union-attr]
        vehicles=[olimpia_permit.vehicle.plate],
    )
    assert answer["drivers"][0]["status"] == answer["vehicles"][0]["status"] == "unknown"
    assert answer["vehicles"][0]["permit_number"] is None


def test_malformed_items_get_their_own_error_and_the_rest_is_answered(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit
) -> None:
    answer = check(
        api,
        patrocinio,
        drivers=["123", "111.111.111-11"],
        vehicles=["AB-12", "ABCD123", patrocinio_permit.vehicle.plate],
    )
    assert [d["error"]["code"] for d in answer["drivers"]] == ["cpf_length", "cpf_invalid"]
    assert [v.get("error", {}).get("code") for v in answer["vehicles"]] == [
        "plate_invalid",
        "plate_invalid",
        None,
    ]
    assert answer["vehicles"][2]["authorized"] is True
    assert "authorized" not in answer["drivers"][0]


def test_an_old_plate_finds_the_car_registered_with_its_mercosul_form(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit
) -> None:
    plate = patrocinio_permit.vehicle.plate  # Mercosul LLLNLNN
    old = plate[:4] + str("ABCDEFGHIJ".index(plate[4])) + plate[5:]
    assert check(api, patrocinio, vehicles=[old])["vehicles"][0]["status"] == "regular"


@pytest.mark.parametrize(
    "body", [{}, {"drivers": []}, {"drivers": "52998224725"}, {"vehicles": ["ABC1D23"] * (MAX_BATCH + 1)}]
)
def test_a_bad_batch_is_refused_with_a_code(
    api: Client, patrocinio: Municipality, body: dict[str, Any]
) -> None:
    response = post_json(api, url(patrocinio.ibge_code, "checks/"), body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


def test_a_linked_auxiliary_driver_is_authorized_only_while_the_link_is_active(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit, driver_case: Case, today: dt.date
) -> None:
    from apps.licensing.casebook import PROFILES, make_driver, make_person
    from apps.registry.models import Driver

    profile = PROFILES["patrocinio_mg_aplicativo"]
    helper = make_person(patrocinio, 77, "Paulo Auxiliar", as_of=today, profile=profile)
    link = make_driver(
        driver_case.operator,
        helper,
        as_of=today,
        profile=profile,
        vehicle=driver_case.vehicle,
        role="auxiliary",
    )
    Driver.objects.filter(pk=link.pk).update(active=True)
    answer = check(api, patrocinio, drivers=[helper.cpf])["drivers"][0]
    assert (answer["authorized"], answer["permit_number"]) == (True, patrocinio_permit.number)
    Driver.objects.filter(pk=link.pk).update(active=False)
    assert check(api, patrocinio, drivers=[helper.cpf])["drivers"][0]["status"] == "unknown"


def test_a_cpf_or_plate_sent_as_a_json_number_is_refused(api: Client, patrocinio: Municipality) -> None:
    # 01234567890 as a number is 1234567890: the leading zero is gone before the API sees it.
    response = post_json(
        api, url(patrocinio.ibge_code, "checks/"), {"drivers": [1234567890], "vehicles": [0]}
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert set(response.json()["fields"]) == {"drivers", "vehicles"}
