"""The JSON endpoint's route answers a plain GET without DRF's dispatch (apps.public.api.verification_route):
the same status, body and headers as DRF's view, which still serves everything else."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory

from apps.licensing.models import Permit
from apps.public import api

pytestmark = pytest.mark.django_db
JSON_URL = "/api/publica/v1/verificacao/"
COMPARED = ("Content-Type", "Cache-Control", "Allow", "Vary", "Retry-After")


def _answer(
    view: Any, query: dict[str, str], headers: dict[str, str]
) -> tuple[int, bytes, dict[str, str | None]]:
    response = view(RequestFactory().get(JSON_URL, query, headers=headers))
    return response.status_code, response.content, {name: response.get(name) for name in COMPARED}


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
@pytest.mark.parametrize(
    "query",
    [
        "known",
        {"municipio": "3533908", "placa": "ZZZ9Z99"},
        {"municipio": "3533908", "placa": "AB-12"},
        {"municipio": "9999999", "placa": "ABC1D23"},
        {"placa": "ABC1D23"},
        {"codigo": "x" * 32},
        "by number",
    ],
)
def test_a_plain_get_is_answered_as_drf_answers_it(
    olimpia_permit: Permit, query: Any, accept: str | None
) -> None:
    if query == "known":
        query = {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate}
    elif query == "by number":
        query = {"municipio": "3533908", "alvara": olimpia_permit.number}
    headers = {"Accept": accept} if accept is not None else {}
    direct, through_drf = (
        _answer(api.verification_route, query, headers),
        _answer(api.verification, query, headers),
    )
    assert direct == through_drf
    assert set((direct[2]["Allow"] or "").split(", ")) == {"GET", "OPTIONS"} and direct[2]["Vary"] == "Accept"


def test_what_drf_may_refuse_still_goes_through_drf(client: Client, olimpia_permit: Permit) -> None:
    query = {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate}
    assert client.get(JSON_URL, query, HTTP_ACCEPT="image/png").status_code == 406
    assert client.get(JSON_URL, query | {"format": "xml"}).status_code == 404
    assert client.head(JSON_URL, query).status_code == 405
    assert client.post(JSON_URL, query).status_code == 405
    assert client.options(JSON_URL).status_code == 200
    assert client.get(JSON_URL, query, HTTP_ACCEPT="text/html").json()["status"] == "regular"


def test_the_schema_still_documents_the_route_from_drfs_view() -> None:
    assert api.verification_route.cls is api.verification.cls  # type: ignore[attr-defined]
