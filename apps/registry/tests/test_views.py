"""Registry screens: gate (404 for outsiders and other municipalities), search, constant queries, audit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.registry.models import Document, Operator, Person, Vehicle
from apps.registry.services import (
    company_create,
    document_upload,
    driver_link,
    operator_create,
    person_create,
    vehicle_create,
)
from apps.registry.tests.conftest import AS_OF, pdf_upload, vehicle_fields
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def analyst_votuporanga_client(make_staff: Callable[..., User], votuporanga: Municipality) -> Client:
    return _client(make_staff("vera.analista", (votuporanga, Role.ANALYST)))


def _urls(operator: Operator, vehicle: Vehicle, document: Document) -> list[str]:
    """Every registry screen, on rows of Olímpia."""
    ibge = operator.municipality.ibge_code
    company = company_create(
        actor=None, municipality=operator.municipality, cnpj="11222333000181", legal_name="E"
    )
    driver = driver_link(
        actor=None,
        operator=operator,
        person=operator.person,  # type: ignore[arg-type]
        as_of=AS_OF,
        role="principal",
        cnh_number="02650306461",
        cnh_category="D",
    )
    return [
        reverse("registry:operator_list", args=[ibge]),
        reverse("registry:operator_detail", args=[ibge, operator.pk]),
        reverse("registry:operator_create", args=[ibge]),
        reverse("registry:person_create", args=[ibge]),
        reverse("registry:person_edit", args=[ibge, operator.person_id]),
        reverse("registry:company_create", args=[ibge]),
        reverse("registry:company_edit", args=[ibge, company.pk]),
        reverse("registry:driver_create", args=[ibge, operator.pk]),
        reverse("registry:driver_edit", args=[ibge, driver.pk]),
        reverse("registry:driver_record", args=[ibge, driver.pk]),
        reverse("registry:attendant_create", args=[ibge, operator.pk]),
        reverse("registry:vehicle_create", args=[ibge, operator.pk]),
        reverse("registry:vehicle_edit", args=[ibge, vehicle.pk]),
        reverse("registry:vehicle_ownership", args=[ibge, vehicle.pk]),
        reverse("registry:document_upload", args=[ibge, operator.pk]),
        reverse("registry:document_file", args=[ibge, document.pk]),
        reverse("registry:document_catalog", args=[ibge]),
    ]


@pytest.fixture
def crlv(kombi: Vehicle) -> Document:
    return document_upload(
        actor=None,
        owner=kombi,
        kind="crlv",
        upload=pdf_upload(),
        issue_date=dt.date(2026, 1, 5),
        expiry_date=dt.date(2026, 12, 31),
        as_of=AS_OF,
    )


def test_outsider_and_other_municipality_get_404(
    outsider: User,
    analyst_votuporanga_client: Client,
    joao_operator: Operator,
    kombi: Vehicle,
    crlv: Document,
) -> None:
    for url in _urls(joao_operator, kombi, crlv):
        assert _client(outsider).get(url).status_code == 404, url
        assert analyst_votuporanga_client.get(url).status_code == 404, url
    driver = joao_operator.drivers.get()
    unlink = reverse("registry:link_deactivate", args=["3533908", "condutor", driver.pk])
    assert analyst_votuporanga_client.post(unlink).status_code == 404
    assert _client(outsider).post(unlink).status_code == 404
    driver.refresh_from_db()
    assert driver.active


def test_agent_may_read_but_not_change(agent_votuporanga: User, votuporanga: Municipality) -> None:
    client = _client(agent_votuporanga)
    assert client.get(reverse("registry:operator_list", args=[votuporanga.ibge_code])).status_code == 200
    assert client.get(reverse("registry:person_create", args=[votuporanga.ibge_code])).status_code == 404


def test_analyst_sees_the_list_and_the_file(
    analyst_olimpia_client: Client,
    joao_operator: Operator,
    kombi: Vehicle,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the file is written once the upload commits
        crlv = document_upload(
            actor=None,
            owner=kombi,
            kind="crlv",
            upload=pdf_upload(),
            issue_date=dt.date(2026, 1, 5),
            expiry_date=dt.date(2026, 12, 31),
            as_of=AS_OF,
        )
    response = analyst_olimpia_client.get(reverse("registry:operator_list", args=["3533908"]))
    assert "João da Silva" in response.content.decode()
    file = analyst_olimpia_client.get(reverse("registry:document_file", args=["3533908", crlv.pk]))
    assert file.status_code == 200 and file["Content-Type"] == "application/pdf"


@pytest.mark.parametrize("query", ["joão", "529.982.247-25", "ABC1D23", "abc-1d23", "12.ABC.345/01DE-35"])
def test_search_by_name_cpf_plate_cnpj(
    analyst_olimpia_client: Client, kombi: Vehicle, olimpia: Municipality, query: str
) -> None:
    company = company_create(
        actor=None, municipality=olimpia, cnpj="12ABC34501DE35", legal_name="Escolar Ltda"
    )
    operator_create(
        actor=None, municipality=olimpia, regime_id="olimpia_sp_escolar", company=company, as_of=AS_OF
    )
    page = analyst_olimpia_client.get(reverse("registry:operator_list", args=["3533908"]), {"q": query})
    content = page.content.decode()
    expected = "Escolar Ltda" if "ABC.345" in query else "João da Silva"
    other = "João da Silva" if expected == "Escolar Ltda" else "Escolar Ltda"
    assert expected in content and other not in content


def _operators(municipality: Municipality, count: int) -> None:
    for number in range(count):
        person = person_create(
            actor=None, municipality=municipality, cpf=_cpf(number), name=f"Pessoa {number}", as_of=AS_OF
        )
        operator = operator_create(
            actor=None, municipality=municipality, regime_id="olimpia_sp_escolar", person=person, as_of=AS_OF
        )
        vehicle_create(
            actor=None,
            municipality=municipality,
            operator=operator,
            as_of=AS_OF,
            **vehicle_fields(plate=f"ABC{1000 + number}", renavam=_renavam(number)),
        )


def _cpf(number: int) -> str:
    from apps.tenancy.demo import demo_cpf

    return demo_cpf(500 + number)


def _renavam(number: int) -> str:
    base = f"{number + 1:010d}"
    total = sum(int(d) * w for d, w in zip(base, (3, 2, 9, 8, 7, 6, 5, 4, 3, 2), strict=True))
    digit = (total * 10) % 11
    return base + str(0 if digit == 10 else digit)


def test_list_uses_a_constant_number_of_queries(
    analyst_olimpia_client: Client, olimpia: Municipality, django_assert_num_queries: Any
) -> None:
    """The page's query count with 2 operators is the count with 20: no query per row."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("registry:operator_list", args=["3533908"])
    _operators(olimpia, 2)
    analyst_olimpia_client.get(url)  # warm the session
    with CaptureQueriesContext(connection) as few:
        analyst_olimpia_client.get(url, {"q": "Pessoa"})
    for number in range(2, 20):
        person = person_create(
            actor=None, municipality=olimpia, cpf=_cpf(number), name=f"Pessoa {number}", as_of=AS_OF
        )
        operator_create(
            actor=None, municipality=olimpia, regime_id="olimpia_sp_escolar", person=person, as_of=AS_OF
        )
    with django_assert_num_queries(len(few.captured_queries)):
        response = analyst_olimpia_client.get(url, {"q": "Pessoa"})
    assert response.content.decode().count("data-operator-id") == 20


def test_operator_page_records_personal_data_read(
    analyst_olimpia_client: Client, joao_operator: Operator
) -> None:
    response = analyst_olimpia_client.get(
        reverse("registry:operator_detail", args=["3533908", joao_operator.pk])
    )
    assert "529.982.247-25" in response.content.decode()
    event = AuditEvent.objects.get(action="personal_data.read", object_id=str(joao_operator.pk))
    assert event.after == {"fields": ["address", "cnh_number", "cpf", "phone"]}


def test_operator_page_links_to_the_operators_permits(
    analyst_olimpia_client: Client, joao_operator: Operator
) -> None:
    page = reverse("registry:operator_detail", args=["3533908", joao_operator.pk])
    permits = reverse("licensing:operator_permits", args=["3533908", joao_operator.pk])
    assert f'href="{permits}"'.encode() in analyst_olimpia_client.get(page).content
    assert analyst_olimpia_client.get(permits).status_code == 200


def test_operator_page_shows_what_expires_next_with_the_law(
    analyst_olimpia_client: Client, joao_operator: Operator, crlv: Document
) -> None:
    content = analyst_olimpia_client.get(
        reverse("registry:operator_detail", args=["3533908", joao_operator.pk])
    ).content.decode()
    assert "vale até 31/12/2026" in content and "art. 9º, XII" in content


def test_person_form_refuses_invalid_cpf_naming_the_field(analyst_olimpia_client: Client) -> None:
    response = analyst_olimpia_client.post(
        reverse("registry:person_create", args=["3533908"]), {"cpf": "111.111.111-12", "name": "Fulano"}
    )
    assert response.status_code == 400
    assert "CPF: número inválido" in response.content.decode()
    assert not Person.objects.exists()


def test_operator_vehicle_and_document_through_the_forms(
    analyst_olimpia_client: Client, joao: Person, olimpia: Municipality
) -> None:
    client = analyst_olimpia_client
    response = client.post(
        reverse("registry:operator_create", args=["3533908"]),
        {"regime_id": "olimpia_sp_escolar", "kind": "PF", "document": "529.982.247-25"},
    )
    operator = Operator.objects.get(person=joao)
    assert response.status_code == 302
    form = {k: v for k, v in vehicle_fields().items()} | {"tachograph_ok": "", "accessibility": ""}
    bad = client.post(
        reverse("registry:vehicle_create", args=["3533908", operator.pk]), form | {"renavam": "1"}
    )
    assert bad.status_code == 400 and "RENAVAM" in bad.content.decode() and not Vehicle.objects.exists()
    assert (
        client.post(reverse("registry:vehicle_create", args=["3533908", operator.pk]), form).status_code
        == 302
    )
    vehicle = Vehicle.objects.get()
    upload = client.post(
        reverse("registry:document_upload", args=["3533908", operator.pk]),
        {
            "owner": f"vehicle:{vehicle.pk}",
            "kind": "crlv",
            "file": pdf_upload(),
            "issue_date": "2026-01-05",
            "expiry_date": "2026-12-31",
        },
    )
    assert upload.status_code == 302
    assert Document.objects.get().vehicle == vehicle


def test_oversized_upload_through_the_form_is_refused(
    analyst_olimpia_client: Client, joao_operator: Operator, settings: Any
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    big = SimpleUploadedFile("a.pdf", b"%PDF-" + b"0" * (10 * 1024 * 1024) + b"%%EOF")
    response = analyst_olimpia_client.post(
        reverse("registry:document_upload", args=["3533908", joao_operator.pk]),
        {
            "owner": f"person:{joao_operator.person_id}",
            "kind": "crlv",
            "file": big,
            "issue_date": "2026-01-05",
        },
    )
    assert response.status_code == 400 and "excede o limite de 10 MB" in response.content.decode()
    assert not Document.objects.exists()


def test_document_catalog_lists_the_laws_kinds_with_articles(analyst_olimpia_client: Client) -> None:
    content = analyst_olimpia_client.get(
        reverse("registry:document_catalog", args=["3533908"])
    ).content.decode()
    assert 'data-kind="crlv"' in content and "art. 9º, XII" in content
    assert 'data-kind="toxicology_exam"' not in content  # a Patrocínio document, not Olímpia's


def test_document_catalog_is_per_regime(analyst_votuporanga_client: Client) -> None:
    content = analyst_votuporanga_client.get(
        reverse("registry:document_catalog", args=["3557105"])
    ).content.decode()
    assert 'data-kind="decharacterization_proof"' in content and 'data-kind="toxicology_exam"' not in content
    assert "a validade impressa no documento" in content  # its CNH: the law fixes no validity of its own


def test_htmx_search_returns_only_the_results(analyst_olimpia_client: Client, kombi: Vehicle) -> None:
    response = analyst_olimpia_client.get(
        reverse("registry:operator_list", args=["3533908"]), {"q": "ABC1D23"}, headers={"HX-Request": "true"}
    )
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="operator-results"') and "<html" not in content
    assert "João da Silva" in content


def test_person_edit_form_is_an_audited_read(analyst_olimpia_client: Client, joao: Person) -> None:
    analyst_olimpia_client.get(reverse("registry:person_edit", args=["3533908", joao.pk]))
    event = AuditEvent.objects.get(action="personal_data.read", object_type="registry.person")
    assert event.object_id == str(joao.pk)


def test_operator_page_shows_bans_and_the_mercosul_form_of_old_plates(
    analyst_olimpia_client: Client, joao_operator: Operator, joao: Person, olimpia: Municipality
) -> None:
    from apps.registry.services import ban_record

    vehicle_create(
        actor=None,
        municipality=olimpia,
        operator=joao_operator,
        as_of=AS_OF,
        **vehicle_fields(plate="ABC1234"),
    )
    ban_record(
        actor=None,
        municipality=olimpia,
        person=joao,
        reason_code="cassation",
        start=dt.date(2026, 4, 1),
        until=dt.date(2028, 4, 1),
        source="Processo 7/2026",
        decision={},
    )
    content = analyst_olimpia_client.get(
        reverse("registry:operator_detail", args=["3533908", joao_operator.pk])
    ).content.decode()
    assert "(Mercosul: ABC1C34)" in content
    assert "01/04/2028" in content and "Processo 7/2026" in content


def test_a_negative_criminal_distribution_certificate_is_accepted_in_votuporanga(
    analyst_votuporanga_client: Client, votuporanga: Municipality
) -> None:
    """Votuporanga asks for the certidão negativa de distribuição criminal: the clerk says it is negative."""
    from apps.registry.lawbridge import document_fact

    today = timezone.localdate()
    person = person_create(
        actor=None,
        municipality=votuporanga,
        cpf="529.982.247-25",
        name="Rita Condutora",
        birth_date=dt.date(1980, 5, 1),
        city="Votuporanga",
        uf="SP",
        as_of=today,
    )
    operator = operator_create(
        actor=None, municipality=votuporanga, regime_id="votuporanga_sp_escolar", person=person, as_of=today
    )
    url = reverse("registry:document_upload", args=["3557105", operator.pk])
    form = {"owner": f"person:{person.pk}", "issue_date": today.isoformat(), "court": "state"}
    wrong = analyst_votuporanga_client.post(
        url, form | {"kind": "crlv", "negative": "true", "file": pdf_upload()}
    )
    assert wrong.status_code == 400 and "só se aplica a certidões" in wrong.content.decode()
    kind = {"kind": "criminal_distribution_certificate", "file": pdf_upload()}
    assert analyst_votuporanga_client.post(url, form | kind | {"negative": "true"}).status_code == 302
    document = Document.objects.get(person=person, kind="criminal_distribution_certificate")
    assert document.status == "valid" and document_fact(document).valid is True
