"""Registry API under /api/v1/registry/: same gate as the screens; writes through the services."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.registry.models import Document, Operator, Vehicle
from apps.registry.tests.conftest import vehicle_fields
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("resource", ["operators", "vehicles", "drivers", "documents"])
def test_anonymous_is_refused(resource: str) -> None:
    assert Client().get(f"/api/v1/registry/{resource}/").status_code == 403


def test_lists_are_scoped_to_the_users_municipalities(
    analyst_olimpia: User, make_staff: Callable[..., User], votuporanga: Municipality, kombi: Vehicle
) -> None:
    other = make_staff("vera.analista", (votuporanga, Role.ANALYST))
    mine = _client(analyst_olimpia).get("/api/v1/registry/vehicles/").json()
    assert [v["plate"] for v in mine["results"]] == ["ABC1D23"]
    assert _client(other).get("/api/v1/registry/vehicles/").json()["results"] == []
    assert _client(other).get(f"/api/v1/registry/vehicles/{kombi.pk}/").status_code == 404
    assert _client(other).get(f"/api/v1/registry/operators/{kombi.operator_id}/").status_code == 404


def test_operator_search_by_plate(analyst_olimpia: User, kombi: Vehicle) -> None:
    found = _client(analyst_olimpia).get("/api/v1/registry/operators/", {"q": "abc1d23"}).json()
    assert [o["holder_name"] for o in found["results"]] == ["João da Silva"]
    assert (
        found["results"][0]["holder_document"] == "***.982.247-**"
    )  # personal data stays on the audited page


def test_vehicle_create_uses_the_service_refusals(analyst_olimpia: User, joao_operator: Operator) -> None:
    client = _client(analyst_olimpia)
    payload = vehicle_fields() | {"municipality_ibge": "3533908", "operator": joao_operator.pk}
    bad = client.post(
        "/api/v1/registry/vehicles/", payload | {"renavam": "63977637131"}, content_type="application/json"
    )
    assert bad.status_code == 400 and "RENAVAM" in bad.json()["renavam"][0]
    assert not Vehicle.objects.exists()
    created = client.post("/api/v1/registry/vehicles/", payload, content_type="application/json")
    assert created.status_code == 201 and created.json()["plate"] == "ABC1D23"
    duplicate = client.post("/api/v1/registry/vehicles/", payload, content_type="application/json")
    assert duplicate.status_code == 400 and "já está cadastrada" in duplicate.json()["plate"][0]


def test_vehicle_create_in_another_municipality_is_404(
    make_staff: Callable[..., User], votuporanga: Municipality, joao_operator: Operator
) -> None:
    other = _client(make_staff("vera.analista", (votuporanga, Role.ANALYST)))
    payload = vehicle_fields() | {"municipality_ibge": "3533908"}
    assert (
        other.post("/api/v1/registry/vehicles/", payload, content_type="application/json").status_code == 404
    )
    assert not Vehicle.objects.exists()


def test_documents_expose_the_engine_decision(analyst_olimpia: User, kombi: Vehicle) -> None:
    import datetime as dt

    from apps.registry.services import document_upload
    from apps.registry.tests.conftest import AS_OF, pdf_upload

    document_upload(
        actor=None,
        owner=kombi,
        kind="crlv",
        upload=pdf_upload(),
        issue_date=dt.date(2026, 1, 5),
        expiry_date=dt.date(2026, 12, 31),
        as_of=AS_OF,
    )
    row = _client(analyst_olimpia).get("/api/v1/registry/documents/").json()["results"][0]
    assert row["valid_until"] == "2026-12-31" and row["decision"]["question"] == "document_validity"
    assert Document.objects.count() == 1


def test_openapi_schema_lists_registry_paths(admin_client: Client) -> None:
    schema = admin_client.get("/api/v1/openapi.json").json()
    assert "/api/v1/registry/operators/" in schema["paths"]
