"""Inspection fixtures: one lawful case per regime (apps.licensing.casebook), inspectors, and helpers that bring
an application to «Aguardando vistoria» through the licensing services."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.finance.services import fee_schedule_create, finance_settings_save, payment_register
from apps.inspections.models import Inspection
from apps.inspections.services import ItemResult, inspection_schedule
from apps.lawconfig.services import fiscal_unit_value_set
from apps.licensing import services as licensing
from apps.licensing.casebook import Case, pf_case, pj_case
from apps.licensing.models import Application, Permit
from apps.licensing.tests.conftest import _votuporanga_fleet_cap  # noqa: F401  (fixture reuse)
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

AS_OF = dt.date(2026, 3, 10)  # a Tuesday


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def olimpia_case(olimpia: Municipality) -> Case:
    return pf_case(olimpia, 11, "João da Silva", as_of=AS_OF)


@pytest.fixture
def votuporanga_case(votuporanga: Municipality) -> Case:
    return pj_case(votuporanga, 12, "Transportes Escolares Vila Ltda", "Marcos Pereira", as_of=AS_OF)


@pytest.fixture
def patrocinio_case(patrocinio: Municipality) -> Case:
    return pf_case(patrocinio, 13, "Paula Motorista", as_of=AS_OF)


@pytest.fixture
def inspector_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("ivo.vistoriador", (olimpia, Role.INSPECTOR), full_name="Ivo Vistoriador")


@pytest.fixture
def inspector_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("pia.vistoriadora", (patrocinio, Role.INSPECTOR), full_name="Pia Vistoriadora")


@pytest.fixture
def inspector_olimpia_client(inspector_olimpia: User) -> Client:
    client = Client()
    client.force_login(inspector_olimpia)
    return client


def awaiting_inspection(case: Case, kind: str = "vehicle_permit", *, as_of: dt.date = AS_OF) -> Application:
    application = licensing.application_create(
        actor=None,
        operator=case.operator,
        kind=kind,
        as_of=as_of,
        vehicle=case.vehicle,
        enrolled_students=12000,
        carries_children_under_4_or_pcd=False,
    )
    licensing.application_submit(application=application, actor=None, as_of=as_of)
    licensing.application_start_analysis(application=application, actor=None, as_of=as_of)
    return licensing.application_require_inspection(application=application, actor=None, as_of=as_of)


def patrocinio_fee_paid(case: Case, patrocinio: Municipality, *, paid_on: dt.date = AS_OF) -> Application:
    """Patrocínio art. 8: the inspection fee (0.25 UFM) issued and paid, so the application awaits inspection."""
    fiscal_unit_value_set(
        actor=None,
        municipality=patrocinio,
        valid_from=dt.date(2026, 1, 1),
        value_brl=Decimal("100.0000"),
        cite="art8",
        source="Decreto de teste",
    )
    finance_settings_save(
        actor=None,
        municipality=patrocinio,
        pix_key="financeiro@patrocinio.mg.gov.br",
        receiver_name="PREFEITURA DE PATROCINIO",
        receiver_city="PATROCINIO",
        guide_due_days=10,
    )
    fee_schedule_create(
        actor=None,
        municipality=patrocinio,
        regime_id=None,
        fee_kind="inspection",
        quantity=Decimal("0.25"),
        unit="ufm",
        cite="art8",
        valid_from=dt.date(2025, 1, 1),
    )
    application = licensing.application_create(
        actor=None, operator=case.operator, kind="vehicle_permit", as_of=paid_on, vehicle=case.vehicle
    )
    licensing.application_submit(application=application, actor=None, as_of=paid_on)
    licensing.application_start_analysis(application=application, actor=None, as_of=paid_on)
    application = licensing.application_require_fee(
        application=application, actor=None, as_of=paid_on, fee_kind="inspection"
    )
    guide = application.fee_guide
    assert guide is not None
    payment_register(
        actor=None,
        guide=guide,
        paid_on=paid_on,
        amount_brl=guide.amount_brl,
        method="pix",
        reference="E2E",
        as_of=paid_on,
    )
    application.refresh_from_db()
    return application


def all_items(inspection: Inspection, *, failing: tuple[str, ...] = ()) -> dict[str, ItemResult]:
    from apps.inspections.lawbridge import checklist

    items = checklist(inspection.regime_id).items_for(inspection.checklist_kind)
    return {
        item.code: ItemResult(ok=item.code not in failing, note="irregular" if item.code in failing else "")
        for item in items
    }


def scheduled(case: Case, *, as_of: dt.date = AS_OF, kind: str = "periodic", **fields: Any) -> Inspection:
    return inspection_schedule(
        actor=None,
        vehicle=case.vehicle,
        scheduled_for=fields.pop("scheduled_for", as_of),
        as_of=as_of,
        kind=kind,
        **fields,
    )


def issue_permit(case: Case, *, as_of: dt.date = AS_OF) -> Permit:
    application = awaiting_inspection(case, as_of=as_of)
    licensing.application_inspection_passed(
        application=application, performed_on=as_of, actor=None, as_of=as_of
    )
    licensing.application_approve(application=application, actor=None, as_of=as_of)
    return Permit.objects.get(application=application)
