"""Due-process fixtures: judges, boards and finance staff per municipality, PIX settings, and the enforcement
fixtures (agents, a licensed vehicle per regime, an isolated MEDIA_ROOT) reused as they are."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from apps.accounts.models import User
from apps.enforcement.tests.conftest import (  # noqa: F401  (fixture reuse)
    _media_root,
    agent_olimpia,
    agent_patrocinio,
    judge_olimpia,
    olimpia_licensed,
    patrocinio_licensed,
    votuporanga_licensed,
)
from apps.finance.services import finance_settings_save
from apps.licensing.tests.conftest import _votuporanga_fleet_cap  # noqa: F401
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality


@pytest.fixture(autouse=True)
def _pix(request: pytest.FixtureRequest, _votuporanga_fleet_cap: None) -> None:  # noqa: F811
    """Every municipality a test uses can issue guides (a fictitious PIX key). Votuporanga's fleet cap hook
    is connected first, so the Votuporanga this creates gets its decree's cap like any other."""
    for name in ("olimpia", "votuporanga", "patrocinio"):
        if name in request.fixturenames:
            municipality: Municipality = request.getfixturevalue(name)
            finance_settings_save(
                actor=None,
                municipality=municipality,
                guide_due_days=10,
                pix_key="3f1c2b7a-0d4e-4c1a-9b8e-6a5d4c3b2a10",
                receiver_name="PREFEITURA",
                receiver_city=name.upper()[:15],
            )


@pytest.fixture
def board_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("beto.junta", (olimpia, Role.APPEAL_BOARD), full_name="Beto da Junta")


@pytest.fixture
def finance_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("fabi.financeiro", (olimpia, Role.FINANCE), full_name="Fabiana Financeiro")


@pytest.fixture
def agent_votuporanga_(make_staff: Callable[..., User], votuporanga: Municipality) -> User:
    return make_staff("vera.agente", (votuporanga, Role.ENFORCEMENT_AGENT), full_name="Vera Agente")


@pytest.fixture
def judge_votuporanga(make_staff: Callable[..., User], votuporanga: Municipality) -> User:
    return make_staff(
        "sergio.secretario", (votuporanga, Role.JUDGING_AUTHORITY), full_name="Sérgio Secretário"
    )


@pytest.fixture
def jari_votuporanga(make_staff: Callable[..., User], votuporanga: Municipality) -> User:
    return make_staff("jari.votuporanga", (votuporanga, Role.APPEAL_BOARD), full_name="Junta JARI")


@pytest.fixture
def finance_votuporanga(make_staff: Callable[..., User], votuporanga: Municipality) -> User:
    return make_staff("vini.financeiro", (votuporanga, Role.FINANCE), full_name="Vinícius Financeiro")


@pytest.fixture
def judge_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("pedro.julgador", (patrocinio, Role.JUDGING_AUTHORITY), full_name="Pedro Julgador")
