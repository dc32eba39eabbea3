"""Across the year boundary with a state value (issue 27): Olímpia fines in UFESP and values a fine on the guide's
issue; on 2 January 2027 the SEFAZ-SP value of 2027 is not entered yet, so the guide waits; the installation's
administrator enters it once, on the installation's screen, and the guide is issued by itself with that value.
The hook contract between lawconfig and finance: an installation-level entry tells every municipality using it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import TestCase

from apps.accounts.models import User
from apps.dueprocess.services.fines import fine_issue
from apps.enforcement.choices import NoticePurpose
from apps.finance.choices import WaitingState
from apps.finance.models import PaymentGuide, WaitingGuide
from apps.lawconfig.services import external_value_enter, interpretation_choose
from apps.tenancy.services import deployment_admin_grant

from .helpers import final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date
UFESP_2027 = Decimal("40.12")


@pytest.fixture
def today() -> Iterator[mock.MagicMock]:
    with mock.patch("django.utils.timezone.localdate") as clock:
        yield clock


@pytest.fixture
def installation_admin(make_staff: Callable[..., User]) -> User:
    user = make_staff("ines.instalacao", full_name="Inês da Instalação")
    deployment_admin_grant(actor=None, user=user)
    return user


def run_tasks() -> None:
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command(
            "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0.1", verbosity=0
        )


def test_a_guide_waiting_for_the_ufesp_is_issued_when_the_installation_enters_it(
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    finance_olimpia: Any,
    olimpia_licensed: Any,
    installation_admin: User,
    today: mock.MagicMock,
) -> None:
    interpretation_choose(
        actor=None,
        municipality=olimpia,
        regime_id="olimpia_sp_escolar",
        interpretation_id="INT-OLI-FINE-VALUATION-DATE",
        option="guide_date",
        decided_by_act="Parecer 1/2026 da Procuradoria",
        decided_on=D(2026, 11, 1),
    )
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 11, 10)
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 11, 11), D(2026, 12, 1))
    assert (sanction.fine_quantity, sanction.fine_unit) == (Decimal(15), "ufesp")

    today.return_value = D(2027, 1, 2)
    notify(case, agent_olimpia, D(2027, 1, 2), NoticePurpose.FINAL_DECISION)
    waiting = fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2027, 1, 2))
    assert isinstance(waiting, WaitingGuide) and "2027" in waiting.missing_value
    assert not PaymentGuide.objects.exists()

    today.return_value = D(2027, 1, 5)
    with TestCase.captureOnCommitCallbacks(execute=True):  # the task is queued once the value commits
        external_value_enter(
            actor=installation_admin,
            parameter="ufesp",
            valid_from=D(2027, 1, 1),
            value=UFESP_2027,
            act="Comunicado DICAR-90/26 da SEFAZ-SP",
            published_on=D(2026, 12, 18),
            as_of=D(2027, 1, 5),
        )
    run_tasks()
    guide = PaymentGuide.objects.get()
    assert guide.amount_brl == Decimal(15) * UFESP_2027 and guide.due_on > guide.issued_on
    waiting.refresh_from_db()
    assert waiting.state == WaitingState.ISSUED and waiting.guide == guide
