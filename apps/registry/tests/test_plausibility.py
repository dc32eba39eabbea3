"""Impossible values are refused on the forms, each with a Portuguese message naming the field, and nothing is
stored: birth date in year 1, UF "XX", CEP "ABCDEFGH", a vehicle made in 1800, IBGE code 9999999."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.registry.models import Company, Operator, Person, Vehicle
from apps.registry.tests.conftest import vehicle_fields

pytestmark = pytest.mark.django_db
PERSON = {"cpf": "529.982.247-25", "name": "Fulano de Tal"}
COMPANY = {"cnpj": "11.222.333/0001-81", "legal_name": "Vans Ltda"}


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"birth_date": "0001-01-01"}, "Data de nascimento: 01/01/0001 não é plausível"),
        ({"uf": "XX"}, "UF: XX não é uma unidade da federação"),
        ({"postal_code": "ABCDEFGH"}, "CEP: informe os 8 dígitos"),
    ],
)
def test_the_person_form_refuses_impossible_values(
    analyst_olimpia_client: Client, bad: dict[str, str], message: str
) -> None:
    response = analyst_olimpia_client.post(reverse("registry:person_create", args=["3533908"]), PERSON | bad)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Person.objects.exists()


def test_the_person_form_keeps_plausible_values_normalized(analyst_olimpia_client: Client) -> None:
    good = PERSON | {"birth_date": "1980-05-17", "uf": "sp", "postal_code": "15400000"}
    assert (
        analyst_olimpia_client.post(reverse("registry:person_create", args=["3533908"]), good).status_code
        == 302
    )
    person = Person.objects.get()
    assert (person.uf, person.postal_code) == ("SP", "15400000")


@pytest.mark.parametrize("typed", ["12210-000", "12.210-000", " 12210 000 "])
def test_the_person_form_takes_the_cep_as_people_type_it(analyst_olimpia_client: Client, typed: str) -> None:
    form = PERSON | {"postal_code": typed}
    response = analyst_olimpia_client.post(reverse("registry:person_create", args=["3533908"]), form)
    assert response.status_code == 302
    assert Person.objects.get().postal_code == "12210000"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"seat_municipality_ibge": "9999999"}, "Código IBGE do município-sede: 9999999 não existe"),
        ({"uf": "XX"}, "UF: XX não é uma unidade da federação"),
        ({"postal_code": "ABCDEFGH"}, "CEP: informe os 8 dígitos"),
    ],
)
def test_the_company_form_refuses_impossible_values(
    analyst_olimpia_client: Client, bad: dict[str, str], message: str
) -> None:
    response = analyst_olimpia_client.post(
        reverse("registry:company_create", args=["3533908"]), COMPANY | bad
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Company.objects.exists()


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"manufacture_year": 1800, "model_year": 1800}, "Ano de fabricação: 1800 não é plausível"),
        (
            {"registration_municipality_ibge": "9999999"},
            "Código IBGE do município de registro: 9999999 não existe",
        ),
    ],
)
def test_the_vehicle_form_refuses_impossible_values(
    analyst_olimpia_client: Client, joao_operator: Operator, bad: dict[str, Any], message: str
) -> None:
    form = vehicle_fields() | {"tachograph_ok": "", "accessibility": ""} | bad
    response = analyst_olimpia_client.post(
        reverse("registry:vehicle_create", args=["3533908", joao_operator.pk]), form
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Vehicle.objects.exists()
