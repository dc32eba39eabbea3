"""Demo registry rows beyond the licensing casebook: cases the registry screens should show on `make run`.

Olímpia: a company (alphanumeric CNPJ, valid from July 2026) registering as PJ operator. Votuporanga: an
operator whose vehicle licence (CRLV) expires within a month, and a person under a ban (art. 26-style
cassação) so a new registration shows the refusal. Patrocínio: an app driver with a criminal certificate.
Identifiers are fictitious with valid check digits, in ranges the casebook does not use. Idempotent: a
municipality that already has the demo person is left as it is.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from apps.registry.models import Company, Person
from apps.registry.services import (
    ban_record,
    company_create,
    document_upload,
    operator_create,
    person_create,
    vehicle_create,
)
from apps.tenancy.demo import DemoLog, demo_cpf, register_demo_seeder
from apps.tenancy.models import Municipality

MINIMAL_PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
CPF_BASE = 9000  # demo_cpf(9000 + n): far from staff users and the licensing casebook (500 + n)


def alphanumeric_cnpj(root: str) -> str:
    """A 12-character root plus its two check digits (IN RFB 2.229/2024: value = ASCII code − 48)."""
    values = [ord(ch) - 48 for ch in root]
    for weights in ((5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2), (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)):
        remainder = sum(v * w for v, w in zip(values, weights, strict=True)) % 11
        values.append(0 if remainder < 2 else 11 - remainder)
    return root + "".join(str(v) for v in values[12:])


def renavam(number: int) -> str:
    base = f"{8100000000 + number:010d}"
    total = sum(int(d) * w for d, w in zip(base, (3, 2, 9, 8, 7, 6, 5, 4, 3, 2), strict=True))
    check = (total * 10) % 11
    return base + str(0 if check == 10 else check)


def _pdf() -> SimpleUploadedFile:
    return SimpleUploadedFile("documento.pdf", MINIMAL_PDF, content_type="application/pdf")


def _person(municipality: Municipality, number: int, name: str, city: str, uf: str, as_of: dt.date) -> Person:
    return person_create(
        actor=None,
        municipality=municipality,
        cpf=demo_cpf(CPF_BASE + number),
        name=name,
        birth_date=dt.date(1975 + number % 20, 1 + number % 12, 10),
        city=city,
        uf=uf,
        phone=f"1799{number:07d}",
        email=f"demo{number}@exemplo.invalid",
        street="Rua das Flores",
        number=str(100 + number),
        district="Centro",
        as_of=as_of,
    )


def _vehicle_fields(ibge: str, city: str, number: int) -> dict[str, Any]:
    return {
        "plate": f"DMO{number % 10}A{number % 100:02d}",
        "renavam": renavam(number),
        "make": "Renault",
        "model": "Master Escolar",
        "manufacture_year": 2021,
        "model_year": 2022,
        "seats": 16,
        "doors": 4,
        "air_conditioning": True,
        "registration_municipality_ibge": ibge,
        "registration_municipality_name": city,
        "category": "aluguel",
        "owner_name": "Proprietário demonstração",
        "owner_document": demo_cpf(CPF_BASE + number),
        "ownership_kind": "own",
    }


def seed_olimpia(municipality: Municipality, as_of: dt.date) -> None:
    company = company_create(
        actor=None,
        municipality=municipality,
        cnpj=alphanumeric_cnpj("12ABC345DM01"),
        legal_name="Transporte Escolar Demonstração Ltda",
        trade_name="Escolar Demo",
        city="Olímpia",
        uf="SP",
        seat_municipality_ibge=municipality.ibge_code,
    )
    operator_create(
        actor=None, municipality=municipality, regime_id="olimpia_sp_escolar", company=company, as_of=as_of
    )
    document_upload(actor=None, owner=company, kind="cnpj_card", upload=_pdf(), issue_date=as_of, as_of=as_of)


def seed_votuporanga(municipality: Municipality, as_of: dt.date) -> None:
    person = _person(municipality, 1, "Marta Demonstração", "Votuporanga", "SP", as_of)
    operator = operator_create(
        actor=None, municipality=municipality, regime_id="votuporanga_sp_escolar", person=person, as_of=as_of
    )
    vehicle = vehicle_create(
        actor=None,
        municipality=municipality,
        operator=operator,
        as_of=as_of,
        **_vehicle_fields(municipality.ibge_code, "Votuporanga", 1),
    )
    document_upload(
        actor=None,
        owner=vehicle,
        kind="crlv",
        upload=_pdf(),
        issue_date=as_of - dt.timedelta(days=340),
        expiry_date=as_of + dt.timedelta(days=25),
        as_of=as_of,
    )
    banned = _person(municipality, 2, "Rui Impedido (demonstração)", "Votuporanga", "SP", as_of)
    ban_record(
        actor=None,
        municipality=municipality,
        person=banned,
        reason_code="cassation",
        start=as_of - dt.timedelta(days=90),
        until=as_of + dt.timedelta(days=640),
        source="Processo administrativo de demonstração",
        decision={},
    )


def seed_patrocinio(municipality: Municipality, as_of: dt.date) -> None:
    person = _person(municipality, 3, "Paulo Motorista (demonstração)", "Patrocínio", "MG", as_of)
    document_upload(
        actor=None,
        owner=person,
        kind="criminal_record_certificate",
        upload=_pdf(),
        issue_date=as_of - dt.timedelta(days=10),
        as_of=as_of,
        details={"valid": True},
    )


SEEDERS = {"3533908": seed_olimpia, "3557105": seed_votuporanga, "3148103": seed_patrocinio}
MARKER_NUMBER = {"3533908": None, "3557105": 1, "3148103": 3}


@register_demo_seeder
def seed_registry(log: DemoLog) -> None:
    as_of = timezone.localdate()
    for ibge, seeder in SEEDERS.items():
        municipality = Municipality.objects.filter(ibge_code=ibge).first()
        if municipality is None or _already_seeded(municipality):
            continue
        seeder(municipality, as_of)
        log.created += 1


def _already_seeded(municipality: Municipality) -> bool:
    number = MARKER_NUMBER[municipality.ibge_code]
    if number is None:
        return Company.objects.filter(
            municipality=municipality, cnpj=alphanumeric_cnpj("12ABC345DM01")
        ).exists()
    return Person.objects.filter(municipality=municipality, cpf=demo_cpf(CPF_BASE + number)).exists()
