"""The inspections API goes through the same gate and services: other municipalities answer 404, refusals 400
with the Portuguese message keyed by the field, and nothing half-written."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from apps.inspections.models import Inspection
from apps.inspections.tests.conftest import scheduled
from apps.licensing.casebook import Case

pytestmark = pytest.mark.django_db
BASE = "/api/v1/inspections/inspections/"


def _items(inspection: Inspection, failing: tuple[str, ...] = ()) -> list[dict[str, object]]:
    from apps.inspections.lawbridge import checklist

    return [
        {"code": item.code, "ok": item.code not in failing, "note": ""}
        for item in checklist(inspection.regime_id).items_for(inspection.checklist_kind)
    ]


def test_it_lists_only_my_municipalitys_inspections(
    inspector_olimpia_client: Client, olimpia_case: Case, votuporanga_case: Case
) -> None:
    today = timezone.localdate()
    mine = scheduled(olimpia_case, as_of=today)
    other = scheduled(votuporanga_case, as_of=today)
    ids = [row["id"] for row in inspector_olimpia_client.get(BASE).json()["results"]]
    assert ids == [mine.pk]
    assert inspector_olimpia_client.get(f"{BASE}{other.pk}/").status_code == 404


def test_outsider_sees_nothing(outsider_client: Client, olimpia_case: Case) -> None:
    row = scheduled(olimpia_case, as_of=timezone.localdate())
    assert outsider_client.get(BASE).json()["results"] == []
    assert (
        outsider_client.post(f"{BASE}{row.pk}/result/", {}, content_type="application/json").status_code
        == 404
    )


def test_it_schedules_and_records_a_result(inspector_olimpia_client: Client, olimpia_case: Case) -> None:
    today = timezone.localdate()
    body = {"vehicle": olimpia_case.vehicle.pk, "scheduled_for": today.isoformat(), "kind": "periodic"}
    created = inspector_olimpia_client.post(BASE, body, content_type="application/json")
    assert created.status_code == 201, created.json()
    row = Inspection.objects.get(pk=created.json()["id"])
    result = {"performed_on": today.isoformat(), "items": _items(row, failing=("lamps",))}
    answer = inspector_olimpia_client.post(f"{BASE}{row.pk}/result/", result, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["result"] == "failed"
    assert Inspection.objects.filter(previous=row, result="pending").exists()


def test_scheduling_a_vehicle_of_another_municipality_is_404(
    inspector_olimpia_client: Client, votuporanga_case: Case
) -> None:
    body = {"vehicle": votuporanga_case.vehicle.pk, "scheduled_for": "2030-01-02", "kind": "periodic"}
    assert inspector_olimpia_client.post(BASE, body, content_type="application/json").status_code == 404
    assert not Inspection.objects.exists()


def test_a_result_with_missing_items_or_a_future_date_is_400(
    inspector_olimpia_client: Client, olimpia_case: Case
) -> None:
    today = timezone.localdate()
    row = scheduled(olimpia_case, as_of=today)
    partial = {"performed_on": today.isoformat(), "items": _items(row)[1:]}
    answer = inspector_olimpia_client.post(
        f"{BASE}{row.pk}/result/", partial, content_type="application/json"
    )
    assert answer.status_code == 400 and "falta" in answer.json()["items"][0]
    future = {"performed_on": (today + dt.timedelta(days=1)).isoformat(), "items": _items(row)}
    answer = inspector_olimpia_client.post(f"{BASE}{row.pk}/result/", future, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["performed_on"] == [
        "Data da vistoria: não pode ser no futuro."
    ]
    row.refresh_from_db()
    assert row.result == "pending"


def test_the_openapi_schema_lists_the_inspection_routes(admin_client: Client) -> None:
    schema = admin_client.get("/api/v1/openapi.json").json()
    assert f"{BASE}{{id}}/result/" in schema["paths"]


def test_the_calendar_endpoint_answers_per_regime_and_hides_other_municipalities(
    admin_client: Client, inspector_olimpia_client: Client, votuporanga_case: Case
) -> None:
    from apps.inspections.tests.conftest import issue_permit

    issue_permit(votuporanga_case)
    query: dict[str, str | int] = {"municipality": "3557105", "year": 2026, "month": 8}
    (section,) = admin_client.get(f"{BASE}calendar/", query).json()
    assert section["available"] is True and [row["plate"] for row in section["vehicles"]] == [
        votuporanga_case.vehicle.plate
    ]
    assert section["months"][7]["due"] == 1
    assert inspector_olimpia_client.get(f"{BASE}calendar/", query).status_code == 404
    assert admin_client.get(f"{BASE}calendar/", {"municipality": "3557105"}).status_code == 400


def test_another_municipalitys_user_as_inspector_is_refused_without_their_name(
    inspector_olimpia_client: Client, olimpia_case: Case, inspector_patrocinio: object
) -> None:
    body = {
        "vehicle": olimpia_case.vehicle.pk,
        "scheduled_for": timezone.localdate().isoformat(),
        "kind": "periodic",
        "inspector": inspector_patrocinio.pk,  # type: ignore[attr-defined]
    }
    response = inspector_olimpia_client.post(BASE, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"inspector": ["Vistoriador: não há servidor com este código em Olímpia-SP."]}
    assert "Pia" not in response.content.decode()
    assert not Inspection.objects.exists()


def test_a_non_numeric_id_answers_404_not_500(inspector_olimpia_client: Client) -> None:
    response = inspector_olimpia_client.post(f"{BASE}abc/result/", {}, content_type="application/json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_non_numeric_vehicle_filter_lists_nothing_instead_of_failing(
    inspector_olimpia_client: Client, olimpia_case: Case
) -> None:
    scheduled(olimpia_case, as_of=timezone.localdate())
    response = inspector_olimpia_client.get(BASE, {"vehicle": "abc"})
    assert response.status_code == 200 and response.json()["results"] == []
