"""Registry fixtures: an Olímpia PF operator with a vehicle, minimal valid files, isolated MEDIA_ROOT."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.registry.models import Operator, Person, Vehicle
from apps.registry.services import operator_create, person_create, vehicle_create
from apps.tenancy.models import Municipality

AS_OF = dt.date(2026, 3, 2)
PDF_BYTES = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
PNG_BYTES = (
    b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00\x00\x00\x01" * 2 + b"IEND\xaeB`\x82"
)  # 1 × 1


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


def pdf_upload(name: str = "doc.pdf", content: bytes = PDF_BYTES) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/pdf")


def vehicle_fields(**overrides: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "plate": "ABC1D23",
        "renavam": "63977637130",
        "make": "Volkswagen",
        "model": "Kombi",
        "manufacture_year": 2020,
        "model_year": 2021,
        "seats": 12,
        "doors": 4,
        "air_conditioning": True,
        "registration_municipality_ibge": "3533908",
        "registration_municipality_name": "Olímpia",
        "category": "aluguel",
        "owner_name": "João da Silva",
        "owner_document": "52998224725",
        "ownership_kind": "own",
    }
    fields.update(overrides)
    return fields


@pytest.fixture
def joao(olimpia: Municipality) -> Person:
    return person_create(
        actor=None,
        municipality=olimpia,
        cpf="529.982.247-25",
        name="João da Silva",
        birth_date=dt.date(1980, 5, 1),
        city="Olímpia",
        uf="SP",
        phone="17991112222",
        as_of=AS_OF,
    )


@pytest.fixture
def joao_operator(joao: Person, olimpia: Municipality) -> Operator:
    return operator_create(
        actor=None, municipality=olimpia, regime_id="olimpia_sp_escolar", person=joao, as_of=AS_OF
    )


@pytest.fixture
def kombi(joao_operator: Operator, olimpia: Municipality) -> Vehicle:
    return vehicle_create(
        actor=None, municipality=olimpia, operator=joao_operator, as_of=AS_OF, **vehicle_fields()
    )
