"""Licensing fixtures: one ready-to-grant case per regime (apps.licensing.casebook), isolated MEDIA_ROOT."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.db.models.signals import post_save

from apps.accounts.models import User
from apps.lawconfig.services import parameter_value_set
from apps.licensing import services
from apps.licensing.casebook import Case, pf_case, pj_case
from apps.licensing.choices import PERMIT_KINDS
from apps.licensing.models import Application, Permit
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

AS_OF = dt.date(2026, 3, 10)
FLEET_CAP = 60


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _votuporanga_fleet_cap() -> Iterator[None]:
    """Votuporanga art. 4º-A leaves the fleet cap to a decree: whenever a test creates Votuporanga (a fixture,
    or request.getfixturevalue in a parametrized test), the cap is set the way its administrator sets it
    (lawconfig's parameter service, a dated and cited value)."""
    post_save.connect(_cap_new_votuporanga, sender=Municipality, dispatch_uid=FLEET_CAP_HOOK)
    yield
    post_save.disconnect(sender=Municipality, dispatch_uid=FLEET_CAP_HOOK)


FLEET_CAP_HOOK = "licensing-tests-votuporanga-fleet-cap"


def _cap_new_votuporanga(sender: Any, instance: Municipality, created: bool, **kwargs: Any) -> None:
    if created and "votuporanga_sp_escolar" in instance.regimes:
        set_fleet_cap(instance)


def set_fleet_cap(municipality: Municipality, value: int = FLEET_CAP) -> None:
    parameter_value_set(
        actor=None,
        municipality=municipality,
        regime_id="votuporanga_sp_escolar",
        parameter="fleet_cap",
        valid_from=dt.date(2018, 3, 20),
        value=Decimal(value),
        cite="art4A",
        source="Decreto de teste",
    )


@pytest.fixture
def olimpia_pf(olimpia: Municipality) -> Case:
    return pf_case(olimpia, 1, "João da Silva", as_of=AS_OF)


@pytest.fixture
def votuporanga_pj(votuporanga: Municipality) -> Case:
    return pj_case(votuporanga, 2, "Transportes Escolares Vila Ltda", "Marcos Pereira", as_of=AS_OF)


@pytest.fixture
def patrocinio_pf(patrocinio: Municipality) -> Case:
    return pf_case(patrocinio, 3, "Paula Motorista", as_of=AS_OF)


@pytest.fixture
def analyst_votuporanga(make_staff: Callable[..., User], votuporanga: Municipality) -> User:
    return make_staff("vera.analista", (votuporanga, Role.ANALYST), full_name="Vera Analista")


@pytest.fixture
def analyst_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("pedro.analista", (patrocinio, Role.ANALYST), full_name="Pedro Analista")


def to_analysis(
    case: Case, kind: str = "vehicle_permit", *, actor: Any = None, as_of: dt.date = AS_OF, **fields: Any
) -> Application:
    """Create, protocol and open the analysis of an application on the case's vehicle."""
    fields.setdefault("vehicle", case.vehicle if kind in PERMIT_KINDS else None)
    fields.setdefault("enrolled_students", 12000)
    fields.setdefault("carries_children_under_4_or_pcd", False)
    application = services.application_create(
        actor=actor, operator=case.operator, kind=kind, as_of=as_of, **fields
    )
    services.application_submit(application=application, actor=actor, as_of=as_of)
    return services.application_start_analysis(application=application, actor=actor, as_of=as_of)


def issue_permit(
    case: Case, kind: str = "vehicle_permit", *, actor: Any = None, as_of: dt.date = AS_OF, **fields: Any
) -> Permit:
    """The whole path without a fee: analysis, inspection passed, approval; returns the permit issued."""
    application = to_analysis(case, kind, actor=actor, as_of=as_of, **fields)
    services.application_require_inspection(application=application, actor=actor, as_of=as_of)
    services.application_inspection_passed(
        application=application, performed_on=as_of, actor=actor, as_of=as_of
    )
    services.application_approve(application=application, actor=actor, as_of=as_of)
    return Permit.objects.get(application=application)
