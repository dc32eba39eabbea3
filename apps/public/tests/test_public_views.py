"""The public page, the QR route and the JSON endpoint: answers, malformed input, rate limit and counting."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.licensing import services
from apps.licensing.models import Permit
from apps.licensing.urls_public import VERIFY_ROUTE_NAME, verify_path
from apps.public import stats
from apps.public.models import LookupCount

pytestmark = pytest.mark.django_db
JSON_URL = "/api/publica/v1/verificacao/"


def test_the_reserved_qr_route_is_the_one_permits_print(olimpia_permit: Permit) -> None:
    assert reverse(VERIFY_ROUTE_NAME, args=[olimpia_permit.qr_token]) == verify_path(olimpia_permit.qr_token)


def test_a_parent_checks_a_plate_on_the_page(client: Client, olimpia_permit: Permit) -> None:
    response = client.get("/consulta/", {"municipio": "3533908", "q": olimpia_permit.vehicle.plate.lower()})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-status="regular"' in page and "Pode transportar passageiros hoje." in page
    assert olimpia_permit.number in page and "Maria Aparecida Souza" in page and "Kombi" in page
    assert response["Cache-Control"] == "no-store"  # it names the holder: no browser or proxy keeps it


def test_the_page_finds_a_permit_by_its_number(client: Client, olimpia_permit: Permit) -> None:
    number = olimpia_permit.number.lstrip("0")
    response = client.get("/consulta/", {"municipio": "3533908", "q": number})
    assert 'data-status="regular"' in response.content.decode()


def test_an_unknown_plate_says_not_found_and_offers_the_complaint(
    client: Client, olimpia_permit: Permit
) -> None:
    response = client.get("/consulta/", {"municipio": "3533908", "q": "ZZZ9Z99"})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-status="unknown"' in page and "Não embarque" in page
    assert "/consulta/denunciar/?municipio=3533908&placa=ZZZ9Z99" in page


def test_a_malformed_plate_gets_a_clear_message_and_400(client: Client, olimpia_permit: Permit) -> None:
    response = client.get("/consulta/", {"municipio": "3533908", "q": "AB-12"})
    assert response.status_code == 400
    assert "Use a placa (ABC1234 ou ABC1D23)" in response.content.decode()


def test_the_qr_code_opens_the_permit(client: Client, olimpia_permit: Permit) -> None:
    response = client.get(verify_path(olimpia_permit.qr_token))
    assert response.status_code == 200
    assert olimpia_permit.number in response.content.decode()
    assert response["Cache-Control"] == "no-store"


def test_a_revoked_token_is_not_found_and_shows_nothing_of_the_new_token(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    old_token = olimpia_permit.qr_token
    services.permit_revoke(permit=olimpia_permit, actor=None, as_of=today, reason="Cassação.")
    old = client.get(verify_path(old_token))
    assert old.status_code == 404
    assert "Código não encontrado" in old.content.decode()
    assert olimpia_permit.number not in old.content.decode()
    new = client.get(verify_path(Permit.objects.get(pk=olimpia_permit.pk).qr_token))
    assert 'data-status="revoked"' in new.content.decode()


def test_a_malformed_token_is_400_on_the_page_and_in_json(client: Client) -> None:
    assert client.get("/verificar/nao-e-um-codigo/").status_code == 400
    response = client.get(JSON_URL, {"codigo": "curto"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_token"


def test_the_json_answer_by_plate(client: Client, olimpia_permit: Permit) -> None:
    response = client.get(JSON_URL, {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate})
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "regular"
    [result] = body["results"]
    assert result["may_carry_passengers"] is True
    assert result["vehicle"] == {
        "make": "Volkswagen",
        "model": "Kombi",
        "plate": olimpia_permit.vehicle.plate,
    }
    assert result["valid_until"] == olimpia_permit.valid_until.isoformat()  # type: ignore[union-attr]
    assert set(result) == {
        "status",
        "status_label",
        "may_carry_passengers",
        "message",
        "checked_on",
        "municipality",
        "municipality_ibge",
        "service",
        "permit_number",
        "permit_kind",
        "valid_from",
        "valid_until",
        "suspended_until",
        "vehicle",
        "holder_name",
        "reason",
        "articles",
    }


def test_the_json_answer_by_permit_number_and_by_token(client: Client, olimpia_permit: Permit) -> None:
    by_number = client.get(JSON_URL, {"municipio": "3533908", "alvara": olimpia_permit.number}).json()
    by_token = client.get(JSON_URL, {"codigo": olimpia_permit.qr_token}).json()
    assert by_number["results"] == by_token["results"]


def test_json_unknown_plate_is_an_answer_and_a_missing_token_is_404(client: Client, olimpia: Any) -> None:
    unknown = client.get(JSON_URL, {"municipio": "3533908", "placa": "ZZZ9Z99"})
    assert (unknown.status_code, unknown.json()["status"]) == (200, "unknown")
    assert unknown.json()["results"][0]["may_carry_passengers"] is False
    missing = client.get(JSON_URL, {"codigo": "A" * 32})
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({}, "missing_parameter"),
        ({"placa": "ABC1234"}, "missing_parameter"),
        ({"municipio": "3533908", "placa": "ABC12"}, "invalid_plate"),
        ({"municipio": "3533908", "alvara": "12-2026"}, "invalid_permit_number"),
        ({"municipio": "9999999", "placa": "ABC1234"}, "unknown_municipality"),
    ],
)
def test_json_bad_input_has_a_stable_code(
    client: Client, olimpia: Any, params: dict[str, str], code: str
) -> None:
    response = client.get(JSON_URL, params)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


def test_bursts_are_limited_per_client_with_a_friendly_message(
    client: Client, settings: Any, olimpia_permit: Permit
) -> None:
    settings.PUBLIC_RATE_LIMIT = 3
    params = {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate}
    assert [client.get(JSON_URL, params).status_code for _ in range(3)] == [200, 200, 200]
    limited = client.get(JSON_URL, params)
    assert limited.status_code == 429
    assert limited.json()["error"]["code"] == "rate_limited"
    assert int(limited["Retry-After"]) >= 1
    page = client.get("/consulta/", {"municipio": "3533908", "q": olimpia_permit.vehicle.plate})
    assert page.status_code == 429 and "Aguarde" in page.content.decode()
    other_client = Client(REMOTE_ADDR="10.0.0.9")
    assert other_client.get(JSON_URL, params).status_code == 200


def test_lookups_are_counted_by_day_municipality_and_result_never_by_who(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    client.get("/consulta/", {"municipio": "3533908", "q": olimpia_permit.vehicle.plate})
    client.get(JSON_URL, {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate})
    client.get(JSON_URL, {"municipio": "3533908", "placa": "ZZZ9Z99"})
    client.get(JSON_URL, {"municipio": "3533908", "placa": "ZZ"})
    client.get(verify_path(olimpia_permit.qr_token))
    rows = {(r.via, r.result): r.count for r in LookupCount.objects.filter(day=today)}
    assert rows == {
        ("plate", "regular"): 2,
        ("plate", "unknown"): 1,
        ("plate", "invalid"): 1,
        ("token", "regular"): 1,
    }
    assert set(LookupCount.objects.values_list("municipality__ibge_code", flat=True)) == {"3533908"}
    field_names = {f.name for f in LookupCount._meta.get_fields()}
    assert field_names == {"id", "day", "municipality", "via", "result", "count"}


def test_the_page_links_open_data_and_the_complaint_form(client: Client, olimpia: Any) -> None:
    page = client.get("/consulta/").content.decode()
    assert reverse("public:open-data") in page and reverse("public:complaint") in page


def test_malformed_requests_count_against_the_client_too(client: Client, settings: Any, olimpia: Any) -> None:
    settings.PUBLIC_RATE_LIMIT = 2
    statuses = [
        client.get(JSON_URL, {"municipio": "3533908", "placa": f"X{i}"}).status_code for i in range(3)
    ]
    assert statuses == [400, 400, 429]
    assert client.get(JSON_URL, {"municipio": "0000000", "placa": "ABC1234"}).status_code == 429


def test_counts_are_batched_per_process_and_written_by_the_flush(
    client: Client, settings: Any, olimpia_permit: Permit, today: dt.date
) -> None:
    settings.PUBLIC_COUNT_FLUSH_SECONDS = 3600
    stats.lookup_counts_flush()  # start the interval now
    for _ in range(3):
        client.get(JSON_URL, {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate})
    assert not LookupCount.objects.exists()
    stats.lookup_counts_flush()
    assert LookupCount.objects.get(day=today, via="plate", result="regular").count == 3
    client.get(JSON_URL, {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate})
    stats.lookup_counts_flush()
    assert LookupCount.objects.get(day=today, via="plate", result="regular").count == 4
