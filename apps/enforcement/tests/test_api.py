"""The enforcement API: the same gate and services as the screens; refusals in Portuguese, 404 for outsiders."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from apps.accounts.models import User
from apps.enforcement.models import InfractionCase
from apps.tenancy.models import Municipality

from .test_case_open import open_auto

pytestmark = pytest.mark.django_db
CASES = "/api/v1/enforcement/cases/"


def api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def auto(municipality: Municipality, **changes: Any) -> dict[str, Any]:
    data = {
        "municipality": municipality.ibge_code,
        "infraction_code": "OLI-22-IV",
        "plate": "ABC1D23",
        "occurred_at": "2026-03-12T07:15:00-03:00",
        "place": "Praça",
        "description": "Sujo",
    }
    data.update(changes)
    return data


def test_an_agent_creates_an_auto_and_notifies_through_the_api(
    olimpia: Municipality, agent_olimpia: User
) -> None:
    client = api(agent_olimpia)
    response = client.post(CASES, auto(olimpia), format="json")
    assert response.status_code == 201, response.data
    pk = response.data["id"]
    assert response.data["number"].startswith("AI-0001/")
    sent = client.post(
        f"{CASES}{pk}/notices/",
        {"purpose": "infraction", "channel": "ar", "sent_on": timezone.localdate().isoformat()},
        format="json",
    )
    assert sent.status_code == 201, sent.data
    receipt = client.post(
        f"/api/v1/enforcement/notices/{sent.data['id']}/receipt/",
        {"received_on": timezone.localdate().isoformat()},
        format="json",
    )
    assert receipt.status_code == 200 and receipt.data["ciencia_on"] == timezone.localdate().isoformat()
    detail = client.get(f"{CASES}{pk}/").data
    assert detail["state"] == "notified" and len(detail["events"]) >= 3


@pytest.mark.parametrize(
    ("changes", "field", "text"),
    [
        ({"infraction_code": ""}, "infraction_code", "catálogo"),
        ({"plate": "ZZ"}, "plate", "Placa"),
        ({"occurred_at": "2099-01-01T10:00:00-03:00"}, "occurred_at", "posterior"),
    ],
)
def test_bad_autos_are_refused_in_portuguese(
    olimpia: Municipality, agent_olimpia: User, changes: dict[str, Any], field: str, text: str
) -> None:
    response = api(agent_olimpia).post(CASES, auto(olimpia, **changes), format="json")
    assert response.status_code == 400 and text in response.data[field][0]
    assert not InfractionCase.objects.exists()


def test_outsiders_see_nothing_and_cannot_create(
    olimpia: Municipality, agent_olimpia: User, agent_votuporanga: User, outsider: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    for user in (agent_votuporanga, outsider):
        client = api(user)
        assert case.number not in str(client.get(CASES).data)
        assert client.get(f"{CASES}{case.pk}/").status_code == 404
    refused = api(agent_votuporanga).post(CASES, auto(olimpia), format="json")
    assert refused.status_code == 404
    assert InfractionCase.objects.count() == 1


def test_a_judge_reads_but_cannot_file(
    olimpia: Municipality, agent_olimpia: User, judge_olimpia: User
) -> None:
    case = open_auto(olimpia, agent_olimpia, plate="ABC1D23")
    client = api(judge_olimpia)
    assert client.get(f"{CASES}{case.pk}/").status_code == 200
    response = client.post(CASES, auto(olimpia), format="json")
    assert response.status_code == 400 and "agente de fiscalização" in str(response.data)


def test_another_municipalitys_driver_is_refused_not_stored_as_none(
    olimpia: Municipality, votuporanga: Municipality, agent_olimpia: User
) -> None:
    from apps.licensing.casebook import pj_case

    other = pj_case(votuporanga, 61, "Vans de Outra Cidade Ltda", "Otávio Outro", as_of=dt.date(2026, 3, 1))
    response = api(agent_olimpia).post(CASES, auto(olimpia, driver=other.driver.pk), format="json")
    assert response.status_code == 400
    assert response.data == {
        "driver": ["Condutor cadastrado: não há condutor com este código em Olímpia-SP."]
    }
    assert "Otávio" not in response.content.decode()
    assert not InfractionCase.objects.exists()


@pytest.mark.parametrize("path", ["cases/abc/notices/", "notices/abc/receipt/", "cases/1e3/", "notices/x/"])
def test_a_non_numeric_id_answers_404_not_500(agent_olimpia: User, path: str) -> None:
    response = api(agent_olimpia).post(f"/api/v1/enforcement/{path}", {}, format="json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_non_numeric_case_filter_lists_nothing_instead_of_failing(agent_olimpia: User) -> None:
    response = api(agent_olimpia).get("/api/v1/enforcement/notices/", {"case": "abc"})
    assert response.status_code == 200 and response.json()["results"] == []


def test_a_100_kb_description_is_refused_by_the_api(olimpia: Municipality, agent_olimpia: User) -> None:
    response = api(agent_olimpia).post(CASES, auto(olimpia, description="x" * 102_400), format="json")
    assert response.status_code == 400 and "description" in response.data
    assert not InfractionCase.objects.exists()
