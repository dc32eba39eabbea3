from __future__ import annotations

import json

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def test_it_lists_only_the_users_municipalities(
    analyst_olimpia_client: Client, votuporanga: Municipality, patrocinio: Municipality
) -> None:
    body = analyst_olimpia_client.get("/api/v1/municipalities/").json()
    assert [row["ibge_code"] for row in body["results"]] == ["3533908"]
    assert body["results"][0]["regimes"] == ["olimpia_sp_escolar"]


def test_it_answers_404_for_a_municipality_outside_scope(
    analyst_olimpia_client: Client, votuporanga: Municipality
) -> None:
    assert analyst_olimpia_client.get("/api/v1/municipalities/3557105/").status_code == 404
    assert analyst_olimpia_client.get("/api/v1/municipalities/3533908/").json()["name"] == "Olímpia"


def test_it_gives_the_outsider_an_empty_list(outsider_client: Client, olimpia: Municipality) -> None:
    assert outsider_client.get("/api/v1/municipalities/").json()["count"] == 0
    assert outsider_client.get("/api/v1/municipalities/3533908/").status_code == 404


def test_it_refuses_anonymous_requests(client: Client, olimpia: Municipality) -> None:
    assert client.get("/api/v1/municipalities/").status_code == 403


def test_it_is_read_only(admin_client: Client, olimpia: Municipality) -> None:
    assert admin_client.delete("/api/v1/municipalities/3533908/").status_code == 405
    assert Municipality.objects.filter(ibge_code="3533908").exists()


def test_it_publishes_a_json_openapi_schema(client: Client, admin_user: User) -> None:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/municipalities/" in schema["paths"]


def test_it_serves_the_api_root(analyst_olimpia_client: Client) -> None:
    response = analyst_olimpia_client.get("/api/v1/", HTTP_ACCEPT="application/json")
    assert response.json()["municipalities"].endswith("/api/v1/municipalities/")
