"""What the regime declares reaches the registry generically: extra fact fields kept in the ``extra`` JSON
column (typed, refused in Portuguese naming the label and article) and passed to the engine; document details
typed by the kind's declaration (a date detail stored JSON-safe and read back by the engine)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

import lawcode
from apps.accounts.models import User
from apps.registry.lawbridge import document_fact, vehicle_facts
from apps.registry.models import Operator, Person, Vehicle
from apps.registry.services import document_upload, vehicle_create, vehicle_update
from apps.registry.tests.conftest import AS_OF, pdf_upload, vehicle_fields
from apps.tenancy.models import Municipality
from lawcode.factfields import FactSchema
from lawcode.fields import FieldSpec

pytestmark = pytest.mark.django_db
CITE = "Lei 5.171/2025 (Olímpia), art. 13, IV"
TAXIMETER = FieldSpec("taximeter_sealed_on", "date", "Data do lacre do taxímetro", "art13_incIV", CITE)
CHILDREN = FieldSpec(
    "children_under_12_aboard",
    "bool",
    "Transporta crianças menores de 12 anos?",
    "art13_incVI",
    "Lei 5.171/2025 (Olímpia), art. 13, VI",
    help="Exige cadeirinha.",
)


@pytest.fixture
def olimpia_asks_about_vehicles() -> Iterator[None]:
    """Olímpia's regime as if its facts.yaml asked two questions about the vehicle (a law asking something new)."""
    regime = lawcode.get_regime("olimpia_sp_escolar")
    original = regime.vocabulary
    schema = FactSchema({"vehicle": {TAXIMETER.key: TAXIMETER, CHILDREN.key: CHILDREN}})
    regime.vocabulary = dataclasses.replace(original, facts=schema)
    yield
    regime.vocabulary = original


@pytest.mark.usefixtures("olimpia_asks_about_vehicles")
def test_extra_answers_are_typed_stored_and_passed_to_the_engine(joao_operator: Operator) -> None:
    vehicle = vehicle_create(
        actor=None,
        municipality=joao_operator.municipality,
        operator=joao_operator,
        as_of=AS_OF,
        extra={"taximeter_sealed_on": "10/02/2026", "children_under_12_aboard": "true"},
        **vehicle_fields(),
    )
    vehicle.refresh_from_db()
    assert vehicle.extra == {"taximeter_sealed_on": "2026-02-10", "children_under_12_aboard": True}
    facts = vehicle_facts(vehicle, as_of=AS_OF)
    typed = lawcode.get_regime("olimpia_sp_escolar").vocabulary.typed_facts(facts)
    assert typed.extra["taximeter_sealed_on"] == dt.date(2026, 2, 10)


@pytest.mark.usefixtures("olimpia_asks_about_vehicles")
def test_a_bad_or_undeclared_answer_is_refused_naming_the_field_and_the_article(kombi: Vehicle) -> None:
    with pytest.raises(ValidationError) as error:
        vehicle_update(actor=None, vehicle=kombi, as_of=AS_OF, extra={"taximeter_sealed_on": "ontem"})
    message = error.value.message_dict["extra_taximeter_sealed_on"][0]
    assert message.startswith("Data do lacre do taxímetro: informe uma data dd/mm/aaaa") and CITE in message
    with pytest.raises(ValidationError) as error:
        vehicle_update(actor=None, vehicle=kombi, as_of=AS_OF, extra={"colour": "branco"})
    assert "não é prevista pela lei do regime" in error.value.message_dict["extra_colour"][0]
    kombi.refresh_from_db()
    assert kombi.extra == {}


@pytest.mark.usefixtures("olimpia_asks_about_vehicles")
def test_the_vehicle_form_asks_the_regimes_questions(
    make_staff: object, olimpia: Municipality, kombi: Vehicle
) -> None:
    from apps.tenancy.choices import Role

    client = Client()
    staff: User = make_staff("oli.analyst", (olimpia, Role.ANALYST))  # type: ignore[operator]
    client.force_login(staff)
    url = reverse("registry:vehicle_edit", args=[olimpia.ibge_code, kombi.pk])
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200, page[-3000:]
    assert "Transporta crianças menores de 12 anos?" in page and "Exige cadeirinha." in page
    data = {name: value for name, value in vehicle_fields().items()} | {
        "extra_children_under_12_aboard": "true",
        "extra_taximeter_sealed_on": "2026-02-10",
    }
    data = {key: "true" if value is True else value for key, value in data.items()}
    assert client.post(url, data).status_code == 302
    kombi.refresh_from_db()
    assert kombi.extra == {"children_under_12_aboard": True, "taximeter_sealed_on": "2026-02-10"}


def test_a_date_detail_is_stored_json_safe_and_read_back_by_the_engine(joao: Person) -> None:
    document = document_upload(
        actor=None,
        owner=joao,
        kind="criminal_record_certificate",
        upload=pdf_upload(),
        issue_date=dt.date(2026, 2, 20),
        as_of=AS_OF,
        details={"presented_on": dt.date(2026, 2, 25), "valid": True},
    )
    document.refresh_from_db()
    assert document.details == {"presented_on": "2026-02-25", "valid": True}
    assert document.status == "valid" and document.valid_until is None
    assert document_fact(document).details == {"presented_on": "2026-02-25"}


def test_a_detail_another_kind_carries_is_refused(joao: Person) -> None:
    with pytest.raises(ValidationError) as error:
        document_upload(
            actor=None,
            owner=joao,
            kind="address_proof",
            upload=pdf_upload(),
            issue_date=dt.date(2026, 2, 20),
            as_of=AS_OF,
            details={"presented_on": "2026-02-25"},
        )
    assert (
        "Comprovante de endereço: a informação 'presented_on'"
        in error.value.message_dict["detail_presented_on"][0]
    )
