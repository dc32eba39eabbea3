"""Realistic registry rows per regime, built through the registry services: an operator, the person who
drives, a vehicle and the documents each law asks for. Used by the demo seeder, the tests and the browser tests,
so all three exercise the same, lawful case. Identifiers are fictitious but valid (check digits computed).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from apps.registry.catalog import regime_kinds
from apps.registry.models import Company, Driver, Operator, Person, Vehicle
from apps.registry.services import (
    company_create,
    document_upload,
    driver_link,
    operator_create,
    person_create,
    vehicle_create,
)
from apps.registry.services.traffic import traffic_record_confirm
from apps.tenancy.demo import demo_cpf
from apps.tenancy.models import Municipality

MINIMAL_PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PLATE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def demo_cnpj(number: int) -> str:
    """A valid, obviously fictitious CNPJ (base 9900000 + number, branch 0001)."""
    digits = [int(d) for d in f"{9900000 + number:08d}0001"]
    for weights in ((5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2), (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)):
        remainder = sum(d * w for d, w in zip(digits, weights, strict=True)) % 11
        digits.append(0 if remainder < 2 else 11 - remainder)
    return "".join(map(str, digits))


def demo_renavam(number: int) -> str:
    """A RENAVAM with a correct check digit (DENATRAN's modulo-11 over the first ten digits)."""
    base = f"{7000000000 + number:010d}"
    weights = (3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
    total = sum(int(d) * w for d, w in zip(base, weights, strict=True))
    check = (total * 10) % 11
    return base + str(0 if check == 10 else check)


def demo_plate(number: int) -> str:
    """A Mercosul plate LLLNLNN derived from the number (unique for numbers below 17 million)."""
    n = number
    letters = ""
    for _ in range(3):
        letters += PLATE_LETTERS[n % 26]
        n //= 26
    return f"{letters}{n % 10}{PLATE_LETTERS[(number // 10) % 26]}{number % 100:02d}"


def pdf() -> SimpleUploadedFile:
    return SimpleUploadedFile("documento.pdf", MINIMAL_PDF, content_type="application/pdf")


@dataclass(frozen=True)
class RegimeProfile:
    """What differs between the laws for a case that should be granted."""

    regime_id: str
    city: str
    ibge: str
    uf: str
    cnh_category: str
    person_documents: tuple[str, ...]
    vehicle_documents: tuple[str, ...]
    company_documents: tuple[str, ...] = ()
    manufacture_year: int = 2020
    seats: int = 15
    category: str = "aluguel"
    # Certificates registry uploads cannot record as negative yet (registry lawbridge.document_fact maps no `valid`).
    negative_certificates: tuple[str, ...] = ()
    # The person's document the analyst reads the driving record from (a clean record is confirmed from it).
    traffic_record_document: str | None = None


PROFILES: dict[str, RegimeProfile] = {
    "olimpia_sp_escolar": RegimeProfile(
        "olimpia_sp_escolar",
        "Olímpia",
        "3533908",
        "SP",
        "D",
        person_documents=(
            "school_transport_course",
            "address_proof",
            "municipal_registration",
            "municipal_tax_clearance",
            "no_gravissima_proof",
            "criminal_record_certificate",
            "criminal_distribution_certificate",
            "detran_fines_clearance",
        ),
        vehicle_documents=("crv", "crlv", "app_insurance", "detran_school_authorization"),
        traffic_record_document="no_gravissima_proof",
    ),
    "votuporanga_sp_escolar": RegimeProfile(
        "votuporanga_sp_escolar",
        "Votuporanga",
        "3557105",
        "SP",
        "D",
        person_documents=(
            "school_transport_course",
            "municipal_registration",
            "municipal_tax_clearance",
            "cnh_record_certificate",
        ),
        vehicle_documents=("crlv", "app_insurance", "detran_school_authorization"),
        negative_certificates=("criminal_distribution_certificate",),
        traffic_record_document="cnh_record_certificate",
        company_documents=("municipal_registration", "municipal_tax_clearance"),
    ),
    "patrocinio_mg_aplicativo": RegimeProfile(
        "patrocinio_mg_aplicativo",
        "Patrocínio",
        "3148103",
        "MG",
        "B",
        person_documents=(
            "criminal_record_certificate",
            "criminal_distribution_certificate",
            "inss_registration",
            "toxicology_exam",
            "platform_registration",
            "platform_exclusivity_pledge",
        ),
        vehicle_documents=("crlv", "app_insurance"),
        manufacture_year=2019,
        seats=5,
        category="particular",
    ),
    "sao_jose_dos_campos_sp_taxi": RegimeProfile(
        "sao_jose_dos_campos_sp_taxi",
        "São José dos Campos",
        "3549904",
        "SP",
        "B",
        person_documents=("identity_document", "cnh_record_certificate", "municipal_tax_clearance"),
        negative_certificates=("criminal_record_certificate",),
        vehicle_documents=("crlv",),
        manufacture_year=2022,
        seats=5,
        category="aluguel",
        traffic_record_document="cnh_record_certificate",
    ),
}


@dataclass(frozen=True)
class Case:
    operator: Operator
    driver: Driver
    vehicle: Vehicle
    person: Person
    company: Company | None = None


def upload_documents(owner: Any, kinds: tuple[str, ...], *, as_of: dt.date, regime_id: str) -> None:
    issued = as_of - dt.timedelta(days=10)
    declared = regime_kinds(regime_id)
    for kind in kinds:
        expiry = as_of + dt.timedelta(days=300) if kind in EXPIRING_KINDS else None
        read = DETAILS.get(kind, {}) | (
            {"presented_on": as_of.isoformat()} if kind.startswith("criminal") else {}
        )
        # Only what the regime asks about this kind (documents.yaml): another regime's detail is refused.
        details = {key: value for key, value in read.items() if key in declared[kind].details}
        document_upload(
            actor=None,
            owner=owner,
            kind=kind,
            upload=pdf(),
            issue_date=issued,
            expiry_date=expiry,
            as_of=as_of,
            details=details or None,
            regime_id=regime_id,
        )


EXPIRING_KINDS = frozenset(
    {"crlv", "app_insurance", "detran_school_authorization", "municipal_tax_clearance"}
)
# What the clerk reads off the paper and the laws ask about (Patrocínio art. 4º I h: third-party coverage).
DETAILS: dict[str, dict[str, Any]] = {"app_insurance": {"third_party_bodily_coverage": True}}


def make_person(
    municipality: Municipality, number: int, name: str, *, as_of: dt.date, profile: RegimeProfile
) -> Person:
    return person_create(
        actor=None,
        municipality=municipality,
        cpf=demo_cpf(500 + number),
        name=name,
        birth_date=dt.date(1982, 4, 1 + number % 27),
        email=f"pessoa{number}@exemplo.org.br",
        phone=f"1799{number:07d}",
        street="Rua das Flores",
        number=str(10 + number),
        district="Centro",
        city=profile.city,
        uf=profile.uf,
        postal_code="15400000",
        as_of=as_of,
    )


def make_vehicle(
    municipality: Municipality,
    operator: Operator,
    number: int,
    *,
    as_of: dt.date,
    profile: RegimeProfile,
    owner: tuple[str, str],
    **overrides: Any,
) -> Vehicle:
    fields: dict[str, Any] = {
        "make": "Volkswagen" if profile.seats > 5 else "Chevrolet",
        "model": "Kombi" if profile.seats > 5 else "Onix",
        "manufacture_year": profile.manufacture_year,
        "model_year": profile.manufacture_year + 1,
        "seats": profile.seats,
        "doors": 4,
        "air_conditioning": True,
        "registration_municipality_ibge": profile.ibge,
        "registration_municipality_name": profile.city,
        "category": profile.category,
        "tachograph_ok": True,
        "last_maintenance": as_of - dt.timedelta(days=30),
        "owner_name": owner[0],
        "owner_document": owner[1],
        "ownership_kind": "own",
        "ownership_since": as_of - dt.timedelta(days=365),
    }
    fields.update(overrides)
    vehicle = vehicle_create(
        actor=None,
        municipality=municipality,
        operator=operator,
        plate=demo_plate(number),
        renavam=demo_renavam(number),
        as_of=as_of,
        **fields,
    )
    upload_documents(vehicle, profile.vehicle_documents, as_of=as_of, regime_id=profile.regime_id)
    return vehicle


def make_driver(
    operator: Operator,
    person: Person,
    *,
    as_of: dt.date,
    profile: RegimeProfile,
    vehicle: Vehicle | None,
    role: str = "principal",
) -> Driver:
    driver = driver_link(
        actor=None,
        operator=operator,
        person=person,
        as_of=as_of,
        role=role,
        cnh_number="02650306461",
        cnh_category=profile.cnh_category,
        cnh_ear=True,
        cnh_first_issue=dt.date(2005, 1, 10),
        cnh_expiry=as_of + dt.timedelta(days=1500),
        course_completed_on=as_of - dt.timedelta(days=200),
        vehicle=vehicle,
    )
    upload_documents(person, profile.person_documents, as_of=as_of, regime_id=profile.regime_id)
    for kind in profile.negative_certificates:
        _negative_certificate(person, kind, as_of=as_of)
    if profile.traffic_record_document is not None:
        record = person.documents.filter(kind=profile.traffic_record_document).latest("issue_date")
        traffic_record_confirm(actor=None, person=person, document=record, as_of=as_of)
    return driver


def _negative_certificate(person: Person, kind: str, *, as_of: dt.date) -> None:
    """Votuporanga asks whether the certificate is negative: the clerk answers «Certidão negativa? Sim» on the
    upload form, which the law reads as Document.valid."""
    document_upload(
        actor=None,
        owner=person,
        kind=kind,
        upload=pdf(),
        issue_date=as_of - dt.timedelta(days=10),
        as_of=as_of,
        details={"valid": True},
        regime_id=person.municipality.regimes[0],
    )


def pf_case(municipality: Municipality, number: int, name: str, *, as_of: dt.date, **vehicle: Any) -> Case:
    """A natural person who holds the permit and drives the vehicle."""
    profile = PROFILES[municipality.regimes[0]]
    person = make_person(municipality, number, name, as_of=as_of, profile=profile)
    operator = operator_create(
        actor=None, municipality=municipality, regime_id=profile.regime_id, person=person, as_of=as_of
    )
    car = make_vehicle(
        municipality,
        operator,
        number,
        as_of=as_of,
        profile=profile,
        owner=(person.name, person.cpf),
        **vehicle,
    )
    driver = make_driver(operator, person, as_of=as_of, profile=profile, vehicle=car)
    return Case(operator, driver, car, person)


def pj_case(
    municipality: Municipality, number: int, legal_name: str, driver_name: str, *, as_of: dt.date
) -> Case:
    """A company holding the permit, with an employee driving."""
    profile = PROFILES[municipality.regimes[0]]
    company = company_create(
        actor=None,
        municipality=municipality,
        cnpj=demo_cnpj(number),
        legal_name=legal_name,
        seat_municipality_ibge=profile.ibge,
        email=f"empresa{number}@exemplo.org.br",
        city=profile.city,
        uf=profile.uf,
        street="Avenida Brasil",
        number=str(100 + number),
        district="Centro",
        postal_code="15500000",
    )
    upload_documents(company, profile.company_documents, as_of=as_of, regime_id=profile.regime_id)
    operator = operator_create(
        actor=None, municipality=municipality, regime_id=profile.regime_id, company=company, as_of=as_of
    )
    car = make_vehicle(
        municipality, operator, number, as_of=as_of, profile=profile, owner=(company.legal_name, company.cnpj)
    )
    person = make_person(municipality, number, driver_name, as_of=as_of, profile=profile)
    driver = make_driver(operator, person, as_of=as_of, profile=profile, vehicle=car, role="employee")
    return Case(operator, driver, car, person, company)


def extra_vehicle(case: Case, number: int, *, as_of: dt.date, **overrides: Any) -> Vehicle:
    profile = PROFILES[case.operator.regime_id]
    holder = case.company or case.person
    owner = (
        getattr(holder, "legal_name", "") or getattr(holder, "name", ""),
        getattr(holder, "cnpj", "") or getattr(holder, "cpf", ""),
    )
    return make_vehicle(
        case.operator.municipality,
        case.operator,
        number,
        as_of=as_of,
        profile=profile,
        owner=owner,
        **overrides,
    )
