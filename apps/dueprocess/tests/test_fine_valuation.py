"""One valuation of a fine, reused by its guide (issue 27, item 3), and a guide that waits for a value instead of
failing, issued by itself once the value is entered (item 2).

Votuporanga is the municipality whose unit value the tests control: its UFM of 2027 is not in the law's table
(parameters.yaml: value null), so a test adds it, or not, through the municipality's legal configuration.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.test import Client, TestCase
from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.dueprocess.models import Sanction
from apps.dueprocess.services.fines import fine_issue
from apps.enforcement.choices import NoticePurpose
from apps.finance.choices import ValuationMoment, WaitingState
from apps.finance.models import FineValuation, PaymentGuide, WaitingGuide
from apps.finance.services import waiting_guides_issue
from apps.lawconfig.services import fiscal_unit_value_set, interpretation_choose
from apps.licensing.sweep import run_sweep
from apps.portal.tests.conftest import make_account, portal_client

from .helpers import final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date
VALUATION = "INT-VOT-UFM-VALUATION-DATE"
UFM_2026 = Decimal("5.45")
UFM_2027 = Decimal("5.73")


@pytest.fixture
def today() -> Iterator[mock.MagicMock]:
    """The clock the background task and the sweep read (timezone.localdate), set by each test."""
    with mock.patch("django.utils.timezone.localdate") as clock:
        yield clock


def run_tasks() -> None:
    """The real worker (manage.py db_worker --batch) runs what was queued; its connection housekeeping would
    close the test's transaction on PostgreSQL, so only that is switched off."""
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command(
            "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0.1", verbosity=0
        )


def choose(municipality: Any, option: str) -> None:
    interpretation_choose(
        actor=None,
        municipality=municipality,
        regime_id="votuporanga_sp_escolar",
        interpretation_id=VALUATION,
        option=option,
        decided_by_act="Parecer 1/2026 da Procuradoria",
        decided_on=D(2026, 11, 1),
    )


def enter_ufm_2027(municipality: Any, as_of: dt.date) -> None:
    """The municipality's administrator enters the UFM of 2027 (decree published in January); what the entry
    queues after its commit is queued (the test's transaction never commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        _enter_ufm_2027(municipality, as_of)


def _enter_ufm_2027(municipality: Any, as_of: dt.date) -> None:
    fiscal_unit_value_set(
        actor=None,
        municipality=municipality,
        valid_from=D(2027, 1, 1),
        value_brl=UFM_2027,
        cite="art13",
        source="Decreto 1.234/2027",
        unit="ufm",
        as_of=as_of,
    )


def final_fine(
    municipality: Any, agent: Any, judge: Any, plate: str, drawn: dt.date, as_of: dt.date
) -> Sanction:
    """An auto of art. 4º § 5º (a fixed fine of 135 UFM) drawn on ``drawn``, final for want of an appeal."""
    case = open_case(municipality, agent, code="VOT-4-PAR5", plate=plate, on=drawn)
    sanction = final_without_appeal(case, agent, judge, drawn, as_of)
    assert sanction.fine_quantity == Decimal(135) and sanction.fine_unit == "ufm"
    return sanction


@pytest.mark.parametrize(("option", "valued_in_2027"), [("infraction_date", False), ("decision_date", True)])
def test_the_guide_charges_the_amount_fixed_at_finality_across_the_year_boundary(
    votuporanga: Any,
    agent_votuporanga_: Any,
    judge_votuporanga: Any,
    finance_votuporanga: Any,
    votuporanga_licensed: Any,
    option: str,
    valued_in_2027: bool,
) -> None:
    """An auto of 28/12/2026 made final in January 2027: the sanction, the stored valuation and the guide read
    one valuation date under either reading (the guide used to value the decision_date reading on the auto's
    date, the sanction on the final decision's: two amounts for one fine)."""
    choose(votuporanga, option)
    enter_ufm_2027(votuporanga, D(2026, 12, 1))
    plate = votuporanga_licensed[0].vehicle.plate
    sanction = final_fine(
        votuporanga, agent_votuporanga_, judge_votuporanga, plate, D(2026, 12, 28), D(2027, 1, 20)
    )
    assert sanction.decided_final_on is not None and sanction.decided_final_on.year == 2027
    notify(sanction.case, agent_votuporanga_, D(2027, 1, 21), NoticePurpose.FINAL_DECISION)
    guide = fine_issue(sanction=sanction, actor=finance_votuporanga, as_of=D(2027, 1, 21))
    assert isinstance(guide, PaymentGuide)
    sanction.refresh_from_db()
    valuation = FineValuation.objects.get(origin_id=sanction.pk)  # one valuation, never a second reading
    expected_date = sanction.decided_final_on if valued_in_2027 else D(2026, 12, 28)
    expected_amount = Decimal(135) * (UFM_2027 if valued_in_2027 else UFM_2026)
    assert (valuation.valuation_date, valuation.amount_brl) == (expected_date, expected_amount)
    assert valuation.moment == ValuationMoment.FINALITY and valuation.unit_value == (
        UFM_2027 if valued_in_2027 else UFM_2026
    )
    assert sanction.fine_brl == guide.amount_brl == valuation.amount_brl
    assert guide.valuation_date == valuation.valuation_date and guide.fine_valuation == valuation
    penalty = next(item for item in sanction.penalties if item["kind"] == "fine")
    assert Decimal(str(penalty["brl"])) == valuation.amount_brl  # the sanction's own decision agrees
    assert "UFM" in valuation.reason and "art. 13" in valuation.reason


def test_a_guide_waits_for_next_years_ufm_and_is_issued_by_itself_once_it_is_entered(
    votuporanga: Any,
    agent_votuporanga_: Any,
    judge_votuporanga: Any,
    finance_votuporanga: Any,
    votuporanga_licensed: Any,
    today: mock.MagicMock,
) -> None:
    """On 2 January 2027 the UFM of 2027 is not entered yet and the municipality values fines on the guide's
    issue: nothing fails, the guide waits (finance and the operator see why); when the administrator enters the
    value, the background task issues it, exactly once, with the amount of that UFM and a due date ahead."""
    choose(votuporanga, "payment_date")
    case, _permit = votuporanga_licensed
    sanction = final_fine(
        votuporanga,
        agent_votuporanga_,
        judge_votuporanga,
        case.vehicle.plate,
        D(2026, 11, 10),
        D(2026, 12, 1),
    )
    first = FineValuation.objects.get(origin_id=sanction.pk)
    assert (first.valuation_date, first.amount_brl) == (D(2026, 12, 1), Decimal(135) * UFM_2026)

    today.return_value = D(2027, 1, 2)
    notify(sanction.case, agent_votuporanga_, D(2027, 1, 2), NoticePurpose.FINAL_DECISION)
    waiting = fine_issue(sanction=sanction, actor=finance_votuporanga, as_of=D(2027, 1, 2))
    assert isinstance(waiting, WaitingGuide) and waiting.missing_value == "valor da UFM de 2027"
    assert "configuração legal do município" in waiting.where_to_enter
    assert not PaymentGuide.objects.exists()
    assert AuditEvent.objects.filter(action="waiting_guide.wait").count() == 1

    account = make_account(case, "vera.operadora")
    page = portal_client(account).get(reverse("portal:case", args=[sanction.case_id])).content.decode()
    assert "Aguardando a publicação do valor da UFM de 2027" in page and "automaticamente" in page
    payments = portal_client(account).get(reverse("portal:guides")).content.decode()
    assert (
        'data-testid="waiting-guide"' in payments
        and "Aguardando a publicação do valor da UFM de 2027" in payments
    )

    staff = Client()
    staff.force_login(finance_votuporanga)
    queue = staff.get(reverse("finance:waiting_list", args=[votuporanga.ibge_code])).content.decode()
    assert f"Multa — auto de infração {sanction.case.number}" in queue and "Valor da UFM de 2027" in queue
    home = staff.get(reverse("municipality_home", args=[votuporanga.ibge_code])).content.decode()
    assert "Aguardando valor" in home

    assert waiting_guides_issue(actor=None, as_of=D(2027, 1, 3)) == 0  # the night retries: still no value

    today.return_value = D(2027, 1, 12)
    enter_ufm_2027(votuporanga, D(2027, 1, 12))
    run_tasks()
    guide = PaymentGuide.objects.get()
    assert guide.amount_brl == Decimal(135) * UFM_2027 and guide.valuation_date == D(2027, 1, 12)
    assert guide.issued_on == D(2027, 1, 12) and guide.due_on > guide.issued_on
    waiting.refresh_from_db()
    sanction.refresh_from_db()
    assert waiting.state == WaitingState.ISSUED and waiting.guide == guide and sanction.guide == guide
    current = FineValuation.objects.filter(origin_id=sanction.pk).latest("id")
    assert current.replaces == first and "12/01/2027" in current.revaluation_reason
    assert sanction.fine_brl == guide.amount_brl == current.amount_brl
    assert AuditEvent.objects.filter(action="waiting_guide.issued").count() == 1

    run_sweep(D(2027, 1, 13))  # the safety net finds nothing left to issue
    enter_ufm_2027(votuporanga, D(2027, 1, 13))  # a correction of the same date fires the hook again
    run_tasks()
    assert PaymentGuide.objects.count() == 1
    page = portal_client(account).get(reverse("portal:case", args=[sanction.case_id])).content.decode()
    assert f"Guia {guide.number}" in page and "Aguardando a publicação" not in page


def test_an_annulled_fine_leaves_the_queue(
    votuporanga: Any,
    agent_votuporanga_: Any,
    judge_votuporanga: Any,
    finance_votuporanga: Any,
    votuporanga_licensed: Any,
) -> None:
    from apps.dueprocess.services.finality import sanction_annul

    choose(votuporanga, "payment_date")
    plate = votuporanga_licensed[0].vehicle.plate
    sanction = final_fine(
        votuporanga, agent_votuporanga_, judge_votuporanga, plate, D(2026, 11, 10), D(2026, 12, 1)
    )
    notify(sanction.case, agent_votuporanga_, D(2027, 1, 2), NoticePurpose.FINAL_DECISION)
    waiting = fine_issue(sanction=sanction, actor=finance_votuporanga, as_of=D(2027, 1, 2))
    assert isinstance(waiting, WaitingGuide)
    sanction_annul(
        case=sanction.case, actor=judge_votuporanga, as_of=D(2027, 1, 5), reason="Revisão de ofício"
    )
    waiting.refresh_from_db()
    assert waiting.state == WaitingState.WITHDRAWN
    enter_ufm_2027(votuporanga, D(2027, 1, 12))
    assert waiting_guides_issue(actor=None, as_of=D(2027, 1, 12)) == 0 and not PaymentGuide.objects.exists()


def test_a_decision_made_final_before_the_value_exists_stands_and_its_fine_is_valued_once_entered(
    votuporanga: Any,
    agent_votuporanga_: Any,
    judge_votuporanga: Any,
    finance_votuporanga: Any,
    votuporanga_licensed: Any,
    today: mock.MagicMock,
) -> None:
    """Valued on the final decision's date (January 2027) with no UFM of 2027 yet: the decision is final all
    the same, with its amount open; the guide waits, and the one valuation is made when the value arrives, on
    the final decision's date (not on the day it happened to be entered)."""
    choose(votuporanga, "decision_date")
    plate = votuporanga_licensed[0].vehicle.plate
    today.return_value = D(2027, 1, 20)
    sanction = final_fine(
        votuporanga, agent_votuporanga_, judge_votuporanga, plate, D(2026, 12, 28), D(2027, 1, 20)
    )
    final_on = sanction.decided_final_on
    assert final_on is not None and final_on.year == 2027
    assert sanction.state == "final" and sanction.fine_brl is None
    findings = " ".join(f["message"] for f in sanction.decision["findings"])
    assert "valor em reais a apurar: a UFM de 2027 ainda não tem valor cadastrado" in findings
    assert not FineValuation.objects.exists()
    notify(sanction.case, agent_votuporanga_, D(2027, 1, 21), NoticePurpose.FINAL_DECISION)
    waiting = fine_issue(sanction=sanction, actor=finance_votuporanga, as_of=D(2027, 1, 21))
    assert isinstance(waiting, WaitingGuide) and waiting.missing_value == "valor da UFM de 2027"

    today.return_value = D(2027, 2, 1)
    enter_ufm_2027(votuporanga, D(2027, 2, 1))
    run_tasks()
    guide = PaymentGuide.objects.get()
    valuation = FineValuation.objects.get()
    sanction.refresh_from_db()
    assert valuation.valuation_date == final_on and valuation.replaces is None
    assert valuation.moment == ValuationMoment.GUIDE_ISSUE
    assert guide.amount_brl == sanction.fine_brl == valuation.amount_brl == Decimal(135) * UFM_2027
    assert guide.issued_on == D(2027, 2, 1) and guide.due_on > guide.issued_on


UFESP_2026 = Decimal("38.42")
UFESP_2027 = Decimal("40.12")


def test_a_fine_in_ufesp_waits_for_the_installations_2027_value_and_is_issued_once_it_is_entered(
    olimpia: Any,
    votuporanga: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    finance_olimpia: Any,
    olimpia_licensed: Any,
    make_staff: Any,
    today: mock.MagicMock,
) -> None:
    """The UFESP of 2027 is the installation's (SEFAZ-SP publishes it in late December): on 02/01/2027 there is
    none, neither in the shipped table nor entered; Olímpia values its fines on the guide's issue, so the guide of
    a fine made final that day waits, and the operator is told why. The installation's administrator then enters
    the 2027 UFESP on the same service the screen uses; the hook reaches every municipality whose law uses it, and
    the task issues the guide exactly once, valued with 2027's UFESP, due ahead, audited."""
    from apps.lawconfig.models import ExternalValue
    from apps.lawconfig.services import external_value_enter
    from apps.tenancy.choices import Role
    from apps.tenancy.services import deployment_admin_grant

    assert not ExternalValue.objects.filter(parameter="ufesp", valid_from__year=2027).exists()
    interpretation_choose(
        actor=None,
        municipality=olimpia,
        regime_id="olimpia_sp_escolar",
        interpretation_id="INT-OLI-FINE-VALUATION-DATE",
        option="guide_date",
        decided_by_act="Parecer 2/2026 da Procuradoria",
        decided_on=D(2026, 11, 1),
    )
    today.return_value = D(2027, 1, 2)
    case, _permit = olimpia_licensed
    auto = open_case(olimpia, agent_olimpia, code="OLI-23-I", plate=case.vehicle.plate, on=D(2026, 12, 10))
    sanction = final_without_appeal(auto, agent_olimpia, judge_olimpia, D(2026, 12, 11), D(2027, 1, 2))
    assert sanction.state == "final" and (sanction.fine_quantity, sanction.fine_unit) == (
        Decimal(15),
        "ufesp",
    )
    notify(sanction.case, agent_olimpia, D(2027, 1, 2), NoticePurpose.FINAL_DECISION)
    waiting = fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2027, 1, 2))
    assert isinstance(waiting, WaitingGuide) and waiting.missing_value == "valor da UFESP de 2027"
    assert "administrador da instalação" in waiting.where_to_enter
    assert not PaymentGuide.objects.exists()

    account = make_account(case, "olga.operadora")
    page = portal_client(account).get(reverse("portal:case", args=[sanction.case_id])).content.decode()
    assert "Aguardando a publicação do valor da UFESP de 2027" in page
    payments = portal_client(account).get(reverse("portal:guides")).content.decode()
    assert "Aguardando a publicação do valor da UFESP de 2027" in payments
    # until when, said the same way to the operator, to finance's queue and on the staff's case page
    until = (
        "Aguardando a publicação do valor da UFESP de 2027, até o seu cadastro pelo administrador da "
        "instalação, nos valores externos (UFESP e índices); a guia é emitida automaticamente no mesmo dia"
    )
    staff = Client()
    staff.force_login(finance_olimpia)
    queue = staff.get(reverse("finance:waiting_list", args=[olimpia.ibge_code])).content.decode()
    case_page = staff.get(
        reverse("dueprocess:case", args=[olimpia.ibge_code, sanction.case_id])
    ).content.decode()
    for shown in (page, payments, queue, case_page):
        assert until in shown

    installer = make_staff("ines.instalacao", (olimpia, Role.ADMINISTRATOR), full_name="Inês da Instalação")
    deployment_admin_grant(actor=None, user=installer)
    today.return_value = D(2027, 1, 8)
    with TestCase.captureOnCommitCallbacks(execute=True):
        external_value_enter(
            actor=installer,
            parameter="ufesp",
            valid_from=D(2027, 1, 1),
            value=UFESP_2027,
            act="Comunicado DICAR-90/26 da SEFAZ-SP",
            act_date=D(2026, 12, 17),
            published_on=D(2026, 12, 18),
            as_of=D(2027, 1, 8),
        )
    run_tasks()
    guide = PaymentGuide.objects.get()
    assert guide.amount_brl == Decimal(15) * UFESP_2027 and guide.valuation_date == D(2027, 1, 8)
    assert guide.issued_on == D(2027, 1, 8) and guide.due_on > guide.issued_on
    waiting.refresh_from_db()
    sanction.refresh_from_db()
    assert waiting.state == WaitingState.ISSUED and waiting.guide == guide and sanction.guide == guide
    assert sanction.fine_brl == guide.amount_brl
    assert AuditEvent.objects.filter(action="waiting_guide.issued").count() == 1
    assert AuditEvent.objects.filter(action="lawconfig.external_value.enter").count() == 1

    run_tasks()
    run_sweep(D(2027, 1, 9))
    assert PaymentGuide.objects.count() == 1
    page = portal_client(account).get(reverse("portal:case", args=[sanction.case_id])).content.decode()
    assert f"Guia {guide.number}" in page and "Aguardando a publicação" not in page
