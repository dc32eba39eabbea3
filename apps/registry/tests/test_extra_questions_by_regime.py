"""A municipality running two laws: the operator form says whose law asks each extra question, and an answer to
a question the chosen regime does not ask is refused on its field — never silently dropped."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.registry.models import Operator, Person
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_laws(olimpia: Municipality) -> Municipality:
    olimpia.regimes = ["olimpia_sp_escolar", "sao_jose_dos_campos_sp_taxi"]
    olimpia.save(update_fields=["regimes"])
    return olimpia


def test_another_regimes_question_is_labelled_and_its_answer_refused(
    two_laws: Municipality, joao: Person, make_staff: object
) -> None:
    client = Client()
    client.force_login(make_staff("ana.analista", (two_laws, Role.ANALYST)))  # type: ignore[operator]
    url = reverse("registry:operator_create", args=[two_laws.ibge_code])
    form = client.get(url).content.decode()
    assert (
        "Permissionário aposentado?" in form and "Só para: Serviço de táxi de São José dos Campos-SP." in form
    )
    response = client.post(
        url,
        {
            "regime_id": "olimpia_sp_escolar",
            "kind": "PF",
            "document": "529.982.247-25",
            "extra_retired": "true",
        },
    )
    text = response.content.decode()
    assert "Permissionário aposentado?: a lei de «Transporte coletivo escolar particular" in text
    assert not Operator.objects.exists()


def test_the_autorizatarios_own_document_is_filed_under_its_holder_so_the_rules_read_it(
    analyst_olimpia_client: Client, joao_operator: Operator
) -> None:
    url = reverse("registry:document_upload", args=["3533908", joao_operator.pk])
    form = analyst_olimpia_client.get(url).content.decode()
    assert f'value="person:{joao_operator.person_id}">Autorizatário: ' in form
    assert f'value="operator:{joao_operator.pk}"' not in form
