"""Enforcement fixtures: agents per municipality, a licensed vehicle per regime, isolated MEDIA_ROOT."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.accounts.models import User
from apps.licensing.casebook import Case, pf_case, pj_case, upload_documents
from apps.licensing.models import Permit
from apps.licensing.tests.conftest import _votuporanga_fleet_cap, issue_permit  # noqa: F401  (fixture reuse)
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

AS_OF = dt.date(2026, 3, 10)
BRT = ZoneInfo("America/Sao_Paulo")
RECORDED_AT = dt.datetime(2026, 3, 12, 10, 30, tzinfo=BRT)
OCCURRED_AT = dt.datetime(2026, 3, 12, 7, 15, tzinfo=BRT)
JPEG = b"\xff\xd8\xff\xc0\x00\x11\x08\x00\x01\x00\x01" + b"\x00" * 57 + b"\xff\xd9"  # a 1 × 1 frame
PNG = (
    b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00\x00\x00\x01" * 2 + b"\x00" * 48 + b"IEND\xaeB`\x82"
)


def jpeg(name: str = "foto.jpg") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, JPEG, content_type="image/jpeg")


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def agent_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("otavio.agente", (olimpia, Role.ENFORCEMENT_AGENT), full_name="Otávio Agente")


@pytest.fixture
def agent_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("paulo.agente", (patrocinio, Role.ENFORCEMENT_AGENT), full_name="Paulo Agente")


@pytest.fixture
def judge_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("julia.juiza", (olimpia, Role.JUDGING_AUTHORITY), full_name="Júlia Julgadora")


@pytest.fixture
def olimpia_licensed(olimpia: Municipality) -> tuple[Case, Permit]:
    case = pf_case(olimpia, 1, "João da Silva", as_of=AS_OF)
    return case, issue_permit(case)


@pytest.fixture
def votuporanga_licensed(votuporanga: Municipality, _votuporanga_fleet_cap: None) -> tuple[Case, Permit]:  # noqa: F811
    case = pj_case(votuporanga, 2, "Transportes Escolares Vila Ltda", "Marcos Pereira", as_of=AS_OF)
    return case, issue_permit(case)


@pytest.fixture
def patrocinio_licensed(patrocinio: Municipality) -> tuple[Case, Permit]:
    case = pf_case(patrocinio, 3, "Paula Motorista", as_of=AS_OF)
    upload_documents(
        case.vehicle, ("inspection_fee_receipt",), as_of=AS_OF, regime_id="patrocinio_mg_aplicativo"
    )
    return case, issue_permit(case)
