"""Portal personas, healthchecks-style, over the licensing and enforcement fixtures (real services throughout).

alice   holder (autorizatário PF) in Olímpia, with an active permit — her own portal login
bob     another holder in Olímpia, with his own permit: alice must never see his rows
marcos  employee driver of a Votuporanga company — sees only his documents and his vehicle
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.accounts.models import User
from apps.dueprocess.tests.conftest import _pix  # noqa: F401  (fixture reuse)
from apps.dueprocess.tests.helpers import notify, open_case
from apps.enforcement.models import InfractionCase
from apps.enforcement.tests.conftest import (  # noqa: F401  (fixture reuse)
    _media_root,
    agent_olimpia,
    judge_olimpia,
    olimpia_licensed,
    votuporanga_licensed,
)
from apps.finance.models import FeeSchedule, PaymentGuide
from apps.finance.services import fee_schedule_create
from apps.licensing.casebook import MINIMAL_PDF, Case, pf_case
from apps.licensing.models import Permit
from apps.licensing.services import (
    application_create,
    application_require_fee,
    application_start_analysis,
    application_submit,
)
from apps.licensing.tests.conftest import _votuporanga_fleet_cap, issue_permit  # noqa: F401
from apps.portal.choices import PortalRole
from apps.portal.models import PortalAccount
from apps.portal.services import portal_account_create
from apps.tenancy.models import Municipality

AS_OF = dt.date(2026, 3, 10)
PASSWORD = "senha-do-portal-123"


def pdf_upload(name: str = "documento.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, MINIMAL_PDF, content_type="application/pdf")


def portal_client(account: PortalAccount) -> Client:
    client = Client()
    client.force_login(account.user)
    return client


def make_account(case: Case, username: str, role: str = PortalRole.OPERATOR, **links: Any) -> PortalAccount:
    return portal_account_create(
        actor=None,
        operator=case.operator,
        role=role,
        username=username,
        password=PASSWORD,
        full_name=username.title(),
        **links,
    )


@pytest.fixture
def alice_case(olimpia_licensed: tuple[Case, Permit]) -> Case:  # noqa: F811
    return olimpia_licensed[0]


@pytest.fixture
def alice_permit(olimpia_licensed: tuple[Case, Permit]) -> Permit:  # noqa: F811
    return olimpia_licensed[1]


@pytest.fixture
def alice(alice_case: Case) -> PortalAccount:
    return make_account(alice_case, "alice")


@pytest.fixture
def alice_client(alice: PortalAccount) -> Client:
    return portal_client(alice)


@pytest.fixture
def bob_licensed(olimpia: Municipality, olimpia_licensed: tuple[Case, Permit]) -> tuple[Case, Permit]:  # noqa: F811
    case = pf_case(olimpia, 7, "Bruno Outro Permissionário", as_of=AS_OF)
    return case, issue_permit(case)


@pytest.fixture
def bob(bob_licensed: tuple[Case, Permit]) -> PortalAccount:
    return make_account(bob_licensed[0], "bob")


@pytest.fixture
def marcos(votuporanga_licensed: tuple[Case, Permit]) -> PortalAccount:  # noqa: F811
    case = votuporanga_licensed[0]
    return make_account(case, "marcos", PortalRole.DRIVER, driver=case.driver)


@pytest.fixture
def make_case(agent_olimpia: User) -> Callable[..., InfractionCase]:  # noqa: F811
    """An auto against a licensed vehicle, notified in person the same day (ciência starts the deadline)."""

    def make(case: Case, on: dt.date) -> InfractionCase:
        auto = open_case(
            case.operator.municipality, agent_olimpia, code="OLI-23-I", plate=case.vehicle.plate, on=on
        )
        notify(auto, agent_olimpia, on)
        auto.refresh_from_db()
        return auto

    return make


@pytest.fixture
def make_guide() -> Callable[..., PaymentGuide]:
    """The renewal fee (R$ 150,00) of an application of the case's operator: licensing asks finance for it."""

    def make(case: Case, permit: Permit) -> PaymentGuide:
        municipality = case.operator.municipality
        if not FeeSchedule.objects.filter(municipality=municipality, fee_kind="renewal").exists():
            fee_schedule_create(
                actor=None,
                municipality=municipality,
                regime_id=None,
                fee_kind="renewal",
                quantity=Decimal("150"),
                unit="brl",
                cite="art3",
                valid_from=dt.date(2026, 1, 1),
            )
        application = application_create(
            actor=None,
            operator=case.operator,
            kind="renewal",
            as_of=AS_OF,
            vehicle=case.vehicle,
            permit=permit,
        )
        application_submit(application=application, actor=None, as_of=AS_OF)
        application_start_analysis(application=application, actor=None, as_of=AS_OF)
        application = application_require_fee(
            application=application, actor=None, as_of=AS_OF, fee_kind="renewal"
        )
        assert application.fee_guide is not None
        return application.fee_guide

    return make
