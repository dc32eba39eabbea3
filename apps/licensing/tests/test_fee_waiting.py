"""A fee counted in a unit whose value is not entered yet does not refuse the act that asks for it (issue 27):
the guide waits in finance's queue, the applicant sees why, and it is issued by itself once the value is entered.

Patrocínio's inspection fee is 0,25 UFM (art. 8); the law leaves the UFM to the municipality, which here has not
entered it yet."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client, TestCase
from django.urls import reverse

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.finance.choices import OriginType, WaitingState
from apps.finance.models import PaymentGuide, WaitingGuide
from apps.finance.services import fee_schedule_create, finance_settings_save
from apps.lawconfig.services import fiscal_unit_value_set
from apps.licensing import services
from apps.licensing.casebook import Case
from apps.licensing.tests.conftest import AS_OF, to_analysis
from apps.portal.tests.conftest import make_account, portal_client
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_patrocinio(make_staff: Callable[..., User], patrocinio: Municipality) -> User:
    return make_staff("paula.admin", (patrocinio, Role.ADMINISTRATOR), full_name="Paula Administradora")


def run_tasks() -> None:
    """The real worker runs what the value's entry queued (its connection housekeeping is switched off: it would
    close the test's transaction)."""
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command(
            "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0.1", verbosity=0
        )


def _inspection_fee_without_ufm(patrocinio: Municipality) -> None:
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


def test_a_fee_in_a_unit_without_value_waits_and_is_issued_once_the_value_is_entered(
    patrocinio_pf: Case, patrocinio: Municipality, admin_patrocinio: User
) -> None:
    _inspection_fee_without_ufm(patrocinio)
    application = to_analysis(patrocinio_pf)
    application = services.application_require_fee(
        application=application, actor=None, as_of=AS_OF, fee_kind="inspection"
    )
    assert application.state == "awaiting_fee" and application.fee_guide is None
    waiting = WaitingGuide.objects.get(origin_type=OriginType.APPLICATION, origin_id=application.pk)
    assert waiting.missing_value.startswith("valor da UFM") and not PaymentGuide.objects.exists()
    assert AuditEvent.objects.filter(action="waiting_guide.wait").count() == 1

    account = make_account(patrocinio_pf, "ana.requerente")
    page = portal_client(account).get(reverse("portal:application", args=[application.pk])).content.decode()
    assert "Aguardando a publicação do valor da UFM" in page and "automaticamente" in page
    payments = portal_client(account).get(reverse("portal:guides")).content.decode()
    assert 'data-testid="waiting-guide"' in payments and "Taxa de vistoria" in payments
    staff = Client()
    staff.force_login(admin_patrocinio)
    detail = staff.get(
        reverse("licensing:application_detail", args=[patrocinio.ibge_code, application.pk])
    ).content.decode()
    assert "Aguardando a publicação do valor da UFM" in detail

    later = AS_OF + dt.timedelta(days=5)
    with mock.patch("django.utils.timezone.localdate", return_value=later):
        with TestCase.captureOnCommitCallbacks(execute=True):
            fiscal_unit_value_set(
                actor=None,
                municipality=patrocinio,
                valid_from=dt.date(2026, 1, 1),
                value_brl=Decimal("100.0000"),
                cite="art8",
                source="Decreto de teste",
                as_of=later,
            )
        run_tasks()
        run_tasks()
    guide = PaymentGuide.objects.get()
    application.refresh_from_db()
    waiting.refresh_from_db()
    assert application.fee_guide == guide and guide.amount_brl == Decimal("25.00")
    assert guide.issued_on == later and guide.due_on > later
    assert waiting.state == WaitingState.ISSUED and waiting.guide == guide
    assert AuditEvent.objects.filter(action="application.fee_guide_issued").count() == 1
    page = portal_client(account).get(reverse("portal:application", args=[application.pk])).content.decode()
    assert f"Guia {guide.number}" in page and "Aguardando a publicação" not in page
