"""A lapsed mandatory document reaches the public: the page, the JSON answer and the open data say irregular,
with the reason and the article — and never a CPF."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from apps.licensing.models import Permit
from apps.licensing.urls_public import verify_path
from apps.public.opendata import permits_in_force
from apps.registry.models import Document

pytestmark = pytest.mark.django_db
JSON_URL = "/api/publica/v1/verificacao/"


def _lapse_insurance(permit: Permit, today: dt.date) -> None:
    Document.objects.filter(vehicle=permit.vehicle, kind="app_insurance").update(
        valid_until=today - dt.timedelta(days=1)
    )


def test_the_page_says_irregular_with_the_reason_and_the_article(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    _lapse_insurance(olimpia_permit, today)
    page = client.get(verify_path(olimpia_permit.qr_token)).content.decode()
    assert 'data-status="irregular"' in page
    assert "NÃO pode transportar passageiros: há documento obrigatório vencido ou ausente." in page
    assert (
        f"Apólice de seguro de Acidentes Pessoais de Passageiros (APP) do veículo: vencido desde {today:%d/%m/%Y}"
        in page
    )
    assert "Fundamento:" in page and "art. 9º, XIII" in page
    assert olimpia_permit.operator.person.cpf not in page  # type: ignore[union-attr]


def test_the_json_answer_carries_the_reason_and_the_articles(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    _lapse_insurance(olimpia_permit, today)
    body = client.get(JSON_URL, {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate}).json()
    [result] = body["results"]
    assert (result["status"], result["may_carry_passengers"]) == ("irregular", False)
    assert "vencido desde" in result["reason"] and any("art. 15" in text for text in result["articles"])


def test_a_regular_van_has_no_reason(client: Client, olimpia_permit: Permit) -> None:
    body = client.get(JSON_URL, {"municipio": "3533908", "placa": olimpia_permit.vehicle.plate}).json()
    assert (body["results"][0]["status"], body["results"][0]["reason"], body["results"][0]["articles"]) == (
        "regular",
        "",
        [],
    )


def test_the_open_data_says_irregular_too(olimpia_permit: Permit, today: dt.date) -> None:
    _lapse_insurance(olimpia_permit, today)
    [row] = list(permits_in_force(olimpia_permit.municipality, today))
    assert row["status"] == "irregular"
