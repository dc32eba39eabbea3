"""Finance personas and fixtures on top of the root conftest (olimpia, votuporanga, patrocinio, make_staff)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.finance.choices import FeeKind, OriginType
from apps.finance.models import FeeSchedule, FinanceSettings, PaymentGuide
from apps.finance.origins import payment_handlers_replaced
from apps.finance.services import fee_guide_issue, fee_schedule_create, finance_settings_save
from apps.lawconfig.services import fiscal_unit_value_set
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

EVP_KEY = "123e4567-e12b-12d1-a456-426655440000"
DAY = dt.date(2026, 3, 2)  # a Monday


@pytest.fixture(autouse=True)
def _no_origin_handlers() -> Iterator[None]:
    """Finance tests pay guides of origins that do not exist; the real handlers (licensing) stay out."""
    with payment_handlers_replaced({}):
        yield


@pytest.fixture
def finance_olimpia(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    return make_staff("fabio.financeiro", (olimpia, Role.FINANCE), full_name="Fábio Financeiro")


@pytest.fixture
def finance_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("paula.financeiro", (patrocinio, Role.FINANCE), full_name="Paula Financeiro")


@pytest.fixture
def admin_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("pedro.admin", (patrocinio, Role.ADMINISTRATOR), full_name="Pedro Administrador")


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def finance_olimpia_client(finance_olimpia: User) -> Client:
    return client_for(finance_olimpia)


@pytest.fixture
def finance_patrocinio_client(finance_patrocinio: User) -> Client:
    return client_for(finance_patrocinio)


def configure_pix(
    municipality: Municipality, name: str = "PREFEITURA MUNICIPAL", city: str = "CIDADE"
) -> None:
    finance_settings_save(
        actor=None,
        municipality=municipality,
        pix_key=EVP_KEY,
        receiver_name=name,
        receiver_city=city,
        guide_due_days=10,
    )


@pytest.fixture
def olimpia_permit_fee(olimpia: Municipality) -> FeeSchedule:
    """A permit fee in reais as a municipality might configure it (cited to the article on permits)."""
    configure_pix(olimpia, "PREFEITURA DE OLIMPIA", "OLIMPIA")
    return fee_schedule_create(
        actor=None,
        municipality=olimpia,
        regime_id=None,
        fee_kind=FeeKind.PERMIT,
        quantity=Decimal("150.00"),
        unit="brl",
        cite="art3",
        valid_from=dt.date(2025, 9, 24),
    )


@pytest.fixture
def patrocinio_inspection_fee(patrocinio: Municipality) -> FeeSchedule:
    configure_pix(patrocinio, "PREF MUN PATROCINIO", "PATROCINIO")
    return fee_schedule_create(
        actor=None,
        municipality=patrocinio,
        regime_id=None,
        fee_kind=FeeKind.INSPECTION,
        quantity=Decimal("0.25"),
        unit="ufm",
        cite="art8",
        valid_from=dt.date(2025, 12, 22),
    )


def add_patrocinio_ufm(
    patrocinio: Municipality,
    value: str = "4.3587",
    since: dt.date = dt.date(2026, 1, 1),
    actor: User | None = None,
) -> None:
    """What an administrator does in the legal configuration once the UFM decree is published."""
    fiscal_unit_value_set(
        actor=actor,
        municipality=patrocinio,
        valid_from=since,
        value_brl=Decimal(value),
        cite="art8",
        source="Decreto municipal (teste)",
    )


def issue_permit_guide(olimpia: Municipality, origin_id: int = 1, day: dt.date = DAY) -> PaymentGuide:
    return fee_guide_issue(
        actor=None,
        municipality=olimpia,
        fee_kind=FeeKind.PERMIT,
        payer_name="José da Silva",
        payer_document="529.982.247-25",
        origin_type=OriginType.APPLICATION,
        origin_id=origin_id,
        fact_date=day,
        as_of=day,
    )


__all__ = [
    "EVP_KEY",
    "FinanceSettings",
    "add_patrocinio_ufm",
    "client_for",
    "configure_pix",
    "issue_permit_guide",
]


# --- a PSP (the municipality's bank) through the API Pix, run locally in a thread (issue 30) ----------------

WEBHOOK_SECRET = "segredo-do-webhook"


@pytest.fixture(scope="session")
def psp_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from apps.finance.tests.psp.server import LocalPsp

    server = LocalPsp.start(tmp_path_factory.mktemp("psp"))
    yield server
    server.stop()


@pytest.fixture
def local_psp(
    psp_server: Any, olimpia: Municipality, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    """Olímpia receives through the local PSP (mTLS, OAuth2); tasks run at once; no schema violation allowed."""
    from apps.finance.psp.client import forget_tokens

    for name, value in psp_server.environment(olimpia.ibge_code).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv(f"OUTORGA_PIX_WEBHOOK_{olimpia.ibge_code}_SECRET", WEBHOOK_SECRET)
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    psp_server.charges.clear()
    psp_server.received.clear()
    psp_server.calls.clear()
    psp_server.violations.clear()
    psp_server.faults.clear()
    psp_server.page_size = 100
    psp_server.webhook_url, psp_server.webhook_secret = "", WEBHOOK_SECRET
    forget_tokens()
    yield psp_server
    assert psp_server.violations == [], "requests or answers outside the API Pix schema"


def configure_charge_terms(municipality: Municipality) -> None:
    from apps.finance.services_pix import pix_charge_terms_save

    pix_charge_terms_save(
        actor=None,
        municipality=municipality,
        fine_percent=Decimal("2.00"),
        interest_percent_month=Decimal("1.00"),
        discount_percent=Decimal("10.00"),
        discount_days_before_due=5,
        days_payable_after_due=30,
        cite="Lei Complementar nº 1/2010 (Código Tributário Municipal), art. 100",
    )
