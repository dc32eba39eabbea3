"""Art. 11-A: the platform reports a rented car; the secretariat sees it in its queue and handles it."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from apps.audit.models import AuditEvent
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.platforms.models import SubstitutionReport
from apps.platforms.services import credential_issue
from apps.platforms.tests.conftest import post_json, url
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def body(case: Case, today: dt.date, **overrides: Any) -> dict[str, Any]:
    return {
        "driver_cpf": case.person.cpf,
        "substitute_plate": "RNT4E21",
        "substitute_make_model": "Fiat Cronos",
        "rental_company": "Locadora Triângulo",
        "reason": "Carro na oficina (embreagem)",
        "starts_on": today.isoformat(),
        "expected_end_on": (today + dt.timedelta(days=5)).isoformat(),
    } | overrides


def test_a_report_creates_the_record_the_secretariat_sees(
    api: Client,
    patrocinio: Municipality,
    patrocinio_permit: Permit,
    driver_case: Case,
    today: dt.date,
    make_staff: Any,
) -> None:
    response = post_json(api, url(patrocinio.ibge_code, "substitutions/"), body(driver_case, today))
    assert response.status_code == 201, response.content
    assert response.json()["permit_number"] == patrocinio_permit.number
    report = SubstitutionReport.objects.get()
    assert AuditEvent.objects.filter(action="platform_substitution.report", object_id=str(report.pk)).exists()
    analyst = make_staff("ana.patrocinio", (patrocinio, Role.ANALYST))
    staff = Client()
    staff.force_login(analyst)
    queue = staff.get(f"/municipios/{patrocinio.ibge_code}/aplicativos/substituicoes/")
    assert "RNT4E21" in queue.content.decode() and "Locadora Triângulo" in queue.content.decode()
    staff.post(
        f"/municipios/{patrocinio.ibge_code}/aplicativos/substituicoes/{report.pk}/decidir/",
        {"decision": "accept", "note": "Alvará visível conferido"},
    )
    status = api.get(url(patrocinio.ibge_code, f"substitutions/{report.pk}/")).json()
    assert (status["state"], status["secretariat_note"]) == ("acknowledged", "Alvará visível conferido")


def test_staff_of_another_town_gets_404(
    api: Client,
    patrocinio: Municipality,
    olimpia: Municipality,
    patrocinio_permit: Permit,
    driver_case: Case,
    today: dt.date,
    make_staff: Any,
) -> None:
    post_json(api, url(patrocinio.ibge_code, "substitutions/"), body(driver_case, today))
    report = SubstitutionReport.objects.get()
    outsider = make_staff("ana.olimpia", (olimpia, Role.ANALYST))
    staff = Client()
    staff.force_login(outsider)
    assert staff.get(f"/municipios/{patrocinio.ibge_code}/aplicativos/substituicoes/").status_code == 404
    decide = f"/municipios/{patrocinio.ibge_code}/aplicativos/substituicoes/{report.pk}/decidir/"
    assert staff.post(decide, {"decision": "accept"}).status_code == 404
    assert SubstitutionReport.objects.get().state == "received"


def test_another_platform_cannot_read_the_report(
    api: Client,
    issued: Any,
    patrocinio: Municipality,
    patrocinio_permit: Permit,
    driver_case: Case,
    today: dt.date,
) -> None:
    from apps.platforms.services import platform_create

    pk = post_json(api, url(patrocinio.ibge_code, "substitutions/"), body(driver_case, today)).json()["id"]
    rival = platform_create(actor=None, name="Outra", cnpj="11444777000161")
    other = Client(
        HTTP_AUTHORIZATION=f"Bearer {credential_issue(actor=None, platform=rival, municipality=patrocinio).token}"
    )
    response = other.get(url(patrocinio.ibge_code, f"substitutions/{pk}/"))
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize(
    ("overrides", "status", "code"),
    [
        ({"substitute_plate": "XX-1"}, 400, "plate_invalid"),
        ({"driver_cpf": "123"}, 400, "cpf_length"),
        ({"driver_cpf": "52998224725"}, 422, "driver_not_authorized"),
        ({"expected_end_on": "2000-01-01"}, 400, "period_invalid"),
        ({"starts_on": "nope"}, 400, "invalid_request"),
    ],
)
def test_bad_reports_are_refused_and_nothing_is_stored(
    api: Client,
    patrocinio: Municipality,
    patrocinio_permit: Permit,
    driver_case: Case,
    today: dt.date,
    overrides: dict[str, str],
    status: int,
    code: str,
) -> None:
    response = post_json(
        api, url(patrocinio.ibge_code, "substitutions/"), body(driver_case, today, **overrides)
    )
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not SubstitutionReport.objects.exists()


def test_the_registered_plate_is_not_a_substitute(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit, driver_case: Case, today: dt.date
) -> None:
    payload = body(driver_case, today, substitute_plate=patrocinio_permit.vehicle.plate)
    response = post_json(api, url(patrocinio.ibge_code, "substitutions/"), payload)
    assert response.json()["code"] == "plate_same_as_registered"


def test_a_town_whose_law_has_no_art_11a_refuses(issued: Any, olimpia: Municipality, today: dt.date) -> None:
    token = credential_issue(actor=None, platform=issued.credential.platform, municipality=olimpia).token
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    payload = {
        "driver_cpf": "52998224725",
        "substitute_plate": "RNT4E21",
        "substitute_make_model": "x",
        "rental_company": "y",
        "reason": "z",
        "starts_on": today.isoformat(),
    }
    response = post_json(client, url(olimpia.ibge_code, "substitutions/"), payload)
    assert (response.status_code, response.json()["code"]) == (422, "substitution_not_in_law")
