"""Services: refusals name the field (and the article for legal ones) and store nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.audit.models import AuditEvent
from apps.registry.models import Company, Document, Driver, Operator, Person, Vehicle
from apps.registry.selectors import decision_reason
from apps.registry.services import (
    ban_record,
    company_create,
    document_upload,
    driver_link,
    operator_create,
    person_create,
    vehicle_create,
)
from apps.registry.tests.conftest import AS_OF, PNG_BYTES, pdf_upload, vehicle_fields
from apps.registry.uploads import MAX_UPLOAD_BYTES
from apps.tenancy.models import Municipality


def _errors(excinfo: pytest.ExceptionInfo[ValidationError]) -> dict[str, list[str]]:
    return excinfo.value.message_dict


def test_person_is_stored_normalized_and_audited(joao: Person) -> None:
    assert joao.cpf == "52998224725" and joao.cpf_display == "529.982.247-25"
    assert AuditEvent.objects.filter(action="registry.person.create", object_id=str(joao.pk)).exists()


def test_invalid_cpf_is_refused_and_nothing_stored(olimpia: Municipality) -> None:
    with pytest.raises(ValidationError, match="CPF: número inválido"):
        person_create(actor=None, municipality=olimpia, cpf="52998224726", name="X", as_of=AS_OF)
    assert not Person.objects.exists()


def test_duplicate_cpf_refused_in_same_municipality_allowed_in_another(
    joao: Person, olimpia: Municipality, votuporanga: Municipality
) -> None:
    with pytest.raises(ValidationError) as excinfo:
        person_create(actor=None, municipality=olimpia, cpf="52998224725", name="Outro", as_of=AS_OF)
    assert "já está cadastrado em Olímpia-SP" in _errors(excinfo)["cpf"][0]
    person_create(actor=None, municipality=votuporanga, cpf="52998224725", name="João", as_of=AS_OF)
    assert Person.objects.filter(cpf="52998224725").count() == 2


def test_future_birth_date_is_refused(olimpia: Municipality) -> None:
    with pytest.raises(ValidationError) as excinfo:
        person_create(
            actor=None,
            municipality=olimpia,
            cpf="52998224725",
            name="X",
            birth_date=AS_OF + dt.timedelta(days=1),
            as_of=AS_OF,
        )
    assert "está no futuro" in _errors(excinfo)["birth_date"][0]
    assert not Person.objects.exists()


def test_alphanumeric_cnpj_company(olimpia: Municipality, votuporanga: Municipality) -> None:
    company = company_create(
        actor=None, municipality=olimpia, cnpj="12.ABC.345/01DE-35", legal_name="Escolar Ltda"
    )
    assert company.cnpj == "12ABC34501DE35" and company.cnpj_display == "12.ABC.345/01DE-35"
    with pytest.raises(ValidationError, match="CNPJ"):
        company_create(actor=None, municipality=olimpia, cnpj="12ABC34501DE36", legal_name="Outra")
    with pytest.raises(ValidationError, match="já está cadastrado"):
        company_create(actor=None, municipality=olimpia, cnpj="12abc34501de35", legal_name="Outra")
    company_create(actor=None, municipality=votuporanga, cnpj="12ABC34501DE35", legal_name="Escolar Ltda")
    assert Company.objects.count() == 2


def test_operator_needs_a_regime_of_the_municipality(joao: Person, olimpia: Municipality) -> None:
    with pytest.raises(ValidationError, match="não aplica o regime"):
        operator_create(
            actor=None, municipality=olimpia, regime_id="patrocinio_mg_aplicativo", person=joao, as_of=AS_OF
        )
    assert not Operator.objects.exists()


def test_banned_person_is_refused_with_article_and_end_date(joao: Person, olimpia: Municipality) -> None:
    ban_record(
        actor=None,
        municipality=olimpia,
        person=joao,
        reason_code="cassation",
        start=dt.date(2026, 1, 10),
        until=dt.date(2028, 1, 10),
        source="Processo 12/2026",
        decision={},
    )
    with pytest.raises(ValidationError) as excinfo:
        operator_create(
            actor=None, municipality=olimpia, regime_id="olimpia_sp_escolar", person=joao, as_of=AS_OF
        )
    message = _errors(excinfo)["person"][0]
    assert "10/01/2028" in message and "art. 26" in message
    assert not Operator.objects.exists()


def test_vehicle_plate_renavam_and_duplicates(
    kombi: Vehicle, olimpia: Municipality, votuporanga: Municipality
) -> None:
    assert kombi.plate == "ABC1D23"
    with pytest.raises(ValidationError) as excinfo:
        vehicle_create(actor=None, municipality=olimpia, as_of=AS_OF, **vehicle_fields(renavam="00000000191"))
    assert "Placa" in _errors(excinfo)["plate"][0]
    with pytest.raises(ValidationError) as excinfo:
        vehicle_create(actor=None, municipality=olimpia, as_of=AS_OF, **vehicle_fields(plate="XYZ9876"))
    assert "RENAVAM" in _errors(excinfo)["renavam"][0]
    vehicle_create(actor=None, municipality=votuporanga, as_of=AS_OF, **vehicle_fields())
    assert Vehicle.objects.count() == 2


def test_old_plate_and_its_mercosul_form_are_the_same_vehicle(olimpia: Municipality) -> None:
    vehicle_create(actor=None, municipality=olimpia, as_of=AS_OF, **vehicle_fields(plate="ABC1234"))
    with pytest.raises(ValidationError, match="Placa"):
        vehicle_create(
            actor=None,
            municipality=olimpia,
            as_of=AS_OF,
            **vehicle_fields(plate="ABC1C34", renavam="00000000191"),
        )


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"plate": "AB-12345"}, "plate"),
        ({"renavam": "63977637131"}, "renavam"),
        ({"manufacture_year": 2027, "model_year": 2027}, "manufacture_year"),
        ({"model_year": 2019}, "model_year"),
        ({"owner_document": "11111111111"}, "owner_document"),
    ],
)
def test_bad_vehicle_input_names_the_field(
    olimpia: Municipality, overrides: dict[str, object], field: str
) -> None:
    with pytest.raises(ValidationError) as excinfo:
        vehicle_create(actor=None, municipality=olimpia, as_of=AS_OF, **vehicle_fields(**overrides))
    assert field in _errors(excinfo)
    assert not Vehicle.objects.exists()


def test_driver_link_checks_dates_category_and_duplicates(joao_operator: Operator, joao: Person) -> None:
    base = {"role": "principal", "cnh_number": "02650306461", "cnh_category": "d", "cnh_ear": True}
    with pytest.raises(ValidationError) as excinfo:
        driver_link(
            actor=None,
            operator=joao_operator,
            person=joao,
            as_of=AS_OF,
            cnh_first_issue=AS_OF + dt.timedelta(days=3),
            **base,
        )
    assert "cnh_first_issue" in _errors(excinfo)
    with pytest.raises(ValidationError, match="Categoria da CNH"):
        driver_link(
            actor=None, operator=joao_operator, person=joao, as_of=AS_OF, **{**base, "cnh_category": "X"}
        )
    driver = driver_link(actor=None, operator=joao_operator, person=joao, as_of=AS_OF, **base)
    assert driver.cnh_category == "D"
    with pytest.raises(ValidationError, match="já é condutor ativo"):
        driver_link(actor=None, operator=joao_operator, person=joao, as_of=AS_OF, **base)
    assert Driver.objects.count() == 1


def test_document_upload_stores_file_and_engine_validity(
    kombi: Vehicle, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # the file is written once the upload commits
        document = document_upload(
            actor=None,
            owner=kombi,
            kind="crlv",
            upload=pdf_upload(),
            issue_date=dt.date(2026, 1, 10),
            expiry_date=dt.date(2026, 12, 31),
            as_of=AS_OF,
        )
    assert document.valid_until == dt.date(2026, 12, 31) and document.status == "valid"
    assert document.decision["question"] == "document_validity"
    assert document.content_type == "application/pdf" and document.file.name.startswith(
        "documents/3533908/2026/"
    )
    assert document.file.storage.exists(document.file.name)


def test_criminal_certificate_fresh_until_decides_acceptance(joao: Person) -> None:
    old = document_upload(
        actor=None,
        owner=joao,
        kind="criminal_record_certificate",
        upload=pdf_upload(),
        issue_date=dt.date(2025, 6, 1),
        as_of=AS_OF,
    )
    assert old.status == "not_accepted"
    assert any(f["status"] == "not_met" for f in old.decision["findings"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"GIF89a" + b"\x00" * 40, "envie um PDF, JPEG ou PNG"),
        (b"%PDF-1.4 truncated", "incompleto ou corrompido"),
        (b"", "vazio"),
    ],
)
def test_unreadable_upload_is_refused(kombi: Vehicle, content: bytes, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        document_upload(
            actor=None,
            owner=kombi,
            kind="crlv",
            upload=pdf_upload(content=content),
            issue_date=dt.date(2026, 1, 10),
            as_of=AS_OF,
        )
    assert not Document.objects.exists()


def test_oversized_upload_is_refused(kombi: Vehicle) -> None:
    big = PNG_BYTES[:8] + b"\x00" * MAX_UPLOAD_BYTES + b"IEND"
    with pytest.raises(ValidationError, match="excede o limite de 10 MB"):
        document_upload(
            actor=None,
            owner=kombi,
            kind="crlv",
            upload=SimpleUploadedFile("a.png", big),
            issue_date=dt.date(2026, 1, 10),
            as_of=AS_OF,
        )
    assert not Document.objects.exists()


def test_future_issue_date_is_refused(kombi: Vehicle) -> None:
    with pytest.raises(ValidationError) as excinfo:
        document_upload(
            actor=None,
            owner=kombi,
            kind="crlv",
            upload=pdf_upload(),
            issue_date=AS_OF + dt.timedelta(days=1),
            as_of=AS_OF,
        )
    assert "issue_date" in _errors(excinfo)
    assert not Document.objects.exists()


def test_a_kind_the_regime_does_not_declare_is_refused_naming_the_law(joao: Person) -> None:
    with pytest.raises(ValidationError) as excinfo:
        document_upload(
            actor=None,
            owner=joao,
            kind="identity_document",
            upload=pdf_upload(),
            issue_date=dt.date(2020, 1, 1),
            as_of=AS_OF,
        )
    message = _errors(excinfo)["kind"][0]
    assert "não é previsto pela Lei 5.171/2025 (Olímpia)" in message and "Comprovante de endereço" in message
    assert not Document.objects.exists()


def test_a_kind_declared_with_printed_expiry_keeps_it_and_cites_the_article(joao: Person) -> None:
    document = document_upload(
        actor=None,
        owner=joao,
        kind="cnh",
        upload=pdf_upload(),
        as_of=AS_OF,
        issue_date=dt.date(2020, 1, 1),
        expiry_date=dt.date(2030, 1, 1),
    )
    assert document.valid_until == dt.date(2030, 1, 1) and document.status == "valid"
    assert document.decision["declared_validity"]["cite"] == "art9_incIII"
    assert "art. 9º, III" in decision_reason(document.decision)
    expired = document_upload(
        actor=None,
        owner=joao,
        kind="cnh",
        upload=pdf_upload(),
        as_of=AS_OF,
        issue_date=dt.date(2015, 1, 1),
        expiry_date=dt.date(2020, 1, 1),
    )
    assert expired.status == "expired"


def test_a_document_presented_by_someone_else_is_refused(kombi: Vehicle) -> None:
    with pytest.raises(ValidationError) as excinfo:
        document_upload(
            actor=None,
            owner=kombi,
            kind="address_proof",
            upload=pdf_upload(),
            issue_date=dt.date(2026, 1, 10),
            as_of=AS_OF,
        )
    assert "é apresentado por autorizatário, condutor" in _errors(excinfo)["owner"][0]


def test_patrocinio_insurance_needs_its_coverage_detail(patrocinio: Municipality) -> None:
    person = person_create(actor=None, municipality=patrocinio, cpf="52998224725", name="Ana", as_of=AS_OF)
    with pytest.raises(ValidationError) as excinfo:
        document_upload(
            actor=None,
            owner=person,
            kind="app_insurance",
            upload=pdf_upload(),
            issue_date=dt.date(2026, 1, 1),
            expiry_date=dt.date(2027, 1, 1),
            as_of=AS_OF,
        )
    message = _errors(excinfo)["detail_third_party_bodily_coverage"][0]
    assert "O seguro cobre danos corporais a terceiros?" in message and "art. 4º, I, h" in message
    assert not Document.objects.exists()
    document = document_upload(
        actor=None,
        owner=person,
        kind="app_insurance",
        upload=pdf_upload(),
        issue_date=dt.date(2026, 1, 1),
        expiry_date=dt.date(2027, 1, 1),
        as_of=AS_OF,
        details={"third_party_bodily_coverage": True},
    )
    assert document.valid_until == dt.date(2027, 1, 1)


def test_a_certificate_read_as_not_negative_is_not_accepted(joao: Person) -> None:
    from apps.registry.lawbridge import document_fact

    document = document_upload(
        actor=None,
        owner=joao,
        kind="criminal_record_certificate",
        upload=pdf_upload(),
        issue_date=dt.date(2026, 2, 20),
        as_of=AS_OF,
        details={"valid": False},
    )
    assert document_fact(document).valid is False and "valid" not in document_fact(document).details
    assert document.status == "not_accepted"


def test_a_duplicate_that_slips_past_the_check_is_refused_by_the_constraint(
    joao: Person, olimpia: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apps.registry import services

    monkeypatch.setattr(services, "_check_person", lambda person, *, as_of: None)
    with pytest.raises(ValidationError) as excinfo:
        person_create(actor=None, municipality=olimpia, cpf="52998224725", name="Outro", as_of=AS_OF)
    assert "acabou de ser cadastrado" in _errors(excinfo)["cpf"][0]
    assert Person.objects.count() == 1


def test_registration_before_the_law_is_in_force_is_refused(joao: Person, olimpia: Municipality) -> None:
    with pytest.raises(ValidationError) as excinfo:
        operator_create(
            actor=None,
            municipality=olimpia,
            regime_id="olimpia_sp_escolar",
            person=joao,
            as_of=dt.date(2000, 1, 1),
        )
    assert "Não foi possível verificar impedimentos" in _errors(excinfo)["person"][0]
    assert not Operator.objects.exists()


def test_regime_without_bans_never_refuses_registration(patrocinio: Municipality) -> None:
    person = person_create(actor=None, municipality=patrocinio, cpf="52998224725", name="Ana", as_of=AS_OF)
    operator = operator_create(
        actor=None, municipality=patrocinio, regime_id="patrocinio_mg_aplicativo", person=person, as_of=AS_OF
    )
    assert operator.status == "pending"


@pytest.mark.parametrize("validator", ["validate_plate", "validate_renavam", "validate_cpf"])
def test_a_bug_in_an_identifier_validator_is_not_reported_as_bad_input(
    olimpia: Municipality, monkeypatch: pytest.MonkeyPatch, validator: str
) -> None:
    """Only the validator's own ValidationError means "invalid input"; any other error is a bug and must surface."""

    def broken(value: str) -> str:
        raise TypeError("bug")

    monkeypatch.setattr(f"apps.registry.identifiers.{validator}", broken)
    with pytest.raises(TypeError):
        vehicle_create(
            actor=None, municipality=olimpia, as_of=AS_OF, **vehicle_fields(owner_document="52998224725")
        )
    assert not Vehicle.objects.exists()
