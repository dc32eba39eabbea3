"""The implausible inputs of issue 28 (item 5), each refused by the services — so by forms and API alike — with a
Portuguese message naming the field."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from apps.accounts.models import User
from apps.registry.models import Driver, Operator, Person, Vehicle
from apps.registry.services import driver_link, person_create, person_update, vehicle_create, vehicle_update

from .conftest import AS_OF, vehicle_fields

pytestmark = pytest.mark.django_db
DRIVER = {"role": "principal", "cnh_number": "02650306461", "cnh_category": "d", "cnh_ear": True}


def _refusal(excinfo: pytest.ExceptionInfo[ValidationError], field: str) -> str:
    return " ".join(excinfo.value.message_dict[field])


@pytest.mark.parametrize(
    ("changes", "field", "text"),
    [
        ({"postal_code": "00000000"}, "postal_code", "CEP: 00000-000 não existe"),
        ({"phone": "abcdefghij"}, "phone", "Telefone: informe DDD e número"),
        ({"phone": "(20) 99123-4567"}, "phone", "o DDD 20 não existe"),
        ({"phone": "17 81234-5678"}, "phone", "começa com 9"),
    ],
)
def test_an_implausible_address_or_phone_is_refused(
    joao: Person, changes: dict[str, Any], field: str, text: str
) -> None:
    with pytest.raises(ValidationError) as excinfo:
        person_update(actor=None, person=joao, as_of=AS_OF, **changes)
    assert text in _refusal(excinfo, field)


def test_a_phone_is_stored_as_its_digits(joao: Person) -> None:
    person = person_update(actor=None, person=joao, as_of=AS_OF, phone="+55 (17) 99123-4567")
    assert person.phone == "17991234567"


@pytest.mark.parametrize(
    ("changes", "field", "text"),
    [
        ({"last_maintenance": dt.date(2099, 1, 1)}, "last_maintenance", "Última manutenção: 01/01/2099"),
        ({"ownership_since": dt.date(1800, 1, 1)}, "ownership_since", "anterior ao ano de fabricação"),
        (
            {"last_maintenance": dt.date(2019, 6, 1)},
            "last_maintenance",
            "anterior ao ano de fabricação, 2020",
        ),
    ],
)
def test_vehicle_dates_are_not_before_it_was_made_nor_in_the_future(
    kombi: Vehicle, changes: dict[str, Any], field: str, text: str
) -> None:
    with pytest.raises(ValidationError) as excinfo:
        vehicle_update(actor=None, vehicle=kombi, as_of=AS_OF, **changes)
    assert text in _refusal(excinfo, field)


def test_the_api_refuses_a_renavam_of_zeros(analyst_olimpia: User, joao_operator: Operator) -> None:
    client = Client()
    client.force_login(analyst_olimpia)
    payload = vehicle_fields(renavam="00000000000") | {
        "municipality_ibge": "3533908",
        "operator": joao_operator.pk,
    }
    response = client.post("/api/v1/registry/vehicles/", payload, content_type="application/json")
    assert response.status_code == 400
    assert "RENAVAM" in response.json()["renavam"][0]
    assert not Vehicle.objects.exists()


def test_the_service_refuses_a_renavam_of_zeros(olimpia: Any) -> None:
    with pytest.raises(ValidationError) as excinfo:
        vehicle_create(actor=None, municipality=olimpia, as_of=AS_OF, **vehicle_fields(renavam="00000000000"))
    assert "RENAVAM" in _refusal(excinfo, "renavam")


def test_a_course_finished_in_1800_is_refused(joao_operator: Operator, joao: Person) -> None:
    with pytest.raises(ValidationError) as excinfo:
        driver_link(
            actor=None,
            operator=joao_operator,
            person=joao,
            as_of=AS_OF,
            course_completed_on=dt.date(1800, 1, 1),
            **DRIVER,
        )
    assert "anterior ao nascimento do condutor, em 01/05/1980" in _refusal(excinfo, "course_completed_on")
    assert not Driver.objects.exists()


def test_a_cnh_issued_before_the_holder_turned_eighteen_is_refused(
    olimpia: Any, joao_operator: Operator
) -> None:
    child = person_create(
        actor=None,
        municipality=olimpia,
        cpf="111.444.777-35",
        name="Criança",
        birth_date=dt.date(2020, 3, 1),
        as_of=AS_OF,
    )
    with pytest.raises(ValidationError) as excinfo:
        driver_link(
            actor=None,
            operator=joao_operator,
            person=child,
            as_of=AS_OF,
            cnh_first_issue=dt.date(2005, 1, 1),
            **DRIVER,
        )
    assert "CTB, art. 140, I" in _refusal(excinfo, "cnh_first_issue")


def test_a_cnh_number_of_one_repeated_digit_is_refused(joao_operator: Operator, joao: Person) -> None:
    with pytest.raises(ValidationError) as excinfo:
        driver_link(
            actor=None,
            operator=joao_operator,
            person=joao,
            as_of=AS_OF,
            **{**DRIVER, "cnh_number": "00000000000"},
        )
    assert "Número da CNH" in _refusal(excinfo, "cnh_number")
