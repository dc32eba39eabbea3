"""Olímpia (Lei 5.171/2025) end to end through the services: deadlines, recidivism in and out of the window,
doubled fines and suspensions, direct cassação with its ban, the art. 21 §2 guard, appeals and refunds."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.audit.models import AuditEvent
from apps.dueprocess.choices import Instance, SanctionState, Verdict
from apps.dueprocess.models import Appeal, Judgment, Sanction
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.dueprocess.services.finality import case_finalize_unappealed
from apps.dueprocess.services.fines import fine_issue
from apps.enforcement.choices import CaseState, NoticePurpose
from apps.finance.choices import GuideStatus, RefundStatus
from apps.finance.models import PaymentGuide, Refund
from apps.finance.services import payment_register
from apps.licensing.choices import ApplicationKind, PermitState
from apps.licensing.services import application_create
from apps.registry.models import Ban

from .helpers import final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date


def plate(licensed: Any) -> Any:
    return licensed[0].vehicle.plate


def test_no_appeal_in_time_makes_the_fine_final_the_day_after_the_deadline(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))  # Friday: 10 days end on Monday 23/03
    with pytest.raises(ValidationError, match="corre até 23/03/2026"):
        case_finalize_unappealed(case=case, actor=judge_olimpia, as_of=D(2026, 3, 23))
    sanction = case_finalize_unappealed(case=case, actor=judge_olimpia, as_of=D(2026, 3, 24))
    case.refresh_from_db()
    assert case.state == CaseState.FINAL and sanction.state == SanctionState.FINAL
    assert sanction.decided_final_on == D(2026, 3, 24)
    assert (sanction.fine_quantity, sanction.fine_unit, sanction.fine_brl) == (
        Decimal(15),
        "ufesp",
        Decimal("576.30"),
    )
    assert sanction.decision["question"] == "sanction" and not sanction.recidivism
    assert olimpia_licensed[1].__class__.objects.get(pk=olimpia_licensed[1].pk).state == PermitState.ACTIVE
    assert AuditEvent.objects.filter(action="sanction.final", object_id=str(sanction.pk)).exists()


def test_an_appeal_deadline_on_good_friday_moves_to_the_next_business_day(
    olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 20)
    )
    notify(case, agent_olimpia, D(2026, 3, 24))  # +10 = Friday 03/04/2026, Good Friday
    appeal = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 4, 6),
        text="Defesa.",
        actor=judge_clerk(olimpia),
        as_of=D(2026, 4, 6),
    )
    assert appeal.deadline == D(2026, 4, 6) and not appeal.late
    assert appeal.judgment_deadline == D(2026, 5, 6)  # 30 days from filing (art. 31 §2)


def judge_clerk(municipality: Any) -> Any:
    from apps.accounts.services import user_create
    from apps.tenancy.choices import Role
    from apps.tenancy.services import membership_grant

    user = user_create(
        actor=None,
        username=f"protocolo.{municipality.pk}",
        password="x-senha-protocolo-123",
        full_name="Protocolo Geral",
    )
    membership_grant(actor=None, user=user, municipality=municipality, role=Role.ANALYST)
    return user


def test_recidivism_inside_the_window_doubles_the_fine_and_suspends_the_permit(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    licensed, permit = olimpia_licensed
    first = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    final_without_appeal(first, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    second = open_case(
        olimpia, agent_olimpia, code="OLI-23-IV", plate=plate(olimpia_licensed), on=D(2026, 4, 10)
    )
    sanction = final_without_appeal(second, agent_olimpia, judge_olimpia, D(2026, 4, 13), D(2026, 4, 24))
    assert sanction.recidivism and sanction.fine_quantity == Decimal(30)
    assert (sanction.suspension_days, sanction.suspension_start, sanction.suspension_end) == (
        30,
        D(2026, 4, 24),
        D(2026, 5, 23),
    )
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED and permit.suspended_until == D(2026, 5, 23)
    assert sanction.effects[0]["kind"] == "suspension"
    prior = sanction.decision["inputs"]["facts"]["operator"]["history"]
    assert [p["infraction_code"] for p in prior] == ["OLI-23-I"]


def test_a_prior_outside_the_six_month_window_is_not_recidivism(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    first = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    final_without_appeal(first, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    later = open_case(
        olimpia, agent_olimpia, code="OLI-23-IV", plate=plate(olimpia_licensed), on=D(2026, 9, 25)
    )
    sanction = final_without_appeal(later, agent_olimpia, judge_olimpia, D(2026, 9, 28), D(2026, 10, 9))
    assert (
        not sanction.recidivism and sanction.fine_quantity == Decimal(15) and sanction.suspension_days is None
    )
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state == PermitState.ACTIVE


def test_direct_cassation_revokes_the_permit_and_the_ban_blocks_a_new_application(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    licensed, permit = olimpia_licensed
    case = open_case(
        olimpia, agent_olimpia, code="OLI-25-III", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    permit.refresh_from_db()
    assert sanction.cassation and permit.state == PermitState.REVOKED
    ban = Ban.objects.get()
    assert (ban.start, ban.until, ban.reason_code) == (D(2026, 3, 24), sanction.ban_until, "art26")
    assert sanction.ban_until is not None and sanction.ban_until.year == 2028
    with pytest.raises(ValidationError) as refused:
        application_create(
            actor=None,
            operator=licensed.operator,
            kind=ApplicationKind.VEHICLE_PERMIT,
            as_of=D(2026, 6, 1),
            vehicle=licensed.vehicle,
        )
    assert "art. 26" in str(refused.value)


def test_the_traffic_only_guard_yields_no_municipal_penalty(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia,
        agent_olimpia,
        code="OLI-24-I",
        plate=plate(olimpia_licensed),
        on=D(2026, 3, 12),
        already_punished_as_traffic_only=True,
        traffic_only_reference="AIT 123",
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    assert sanction.outcome == "no_penalty" and sanction.fine_quantity is None and sanction.effects == []
    assert any(c["dispositivo"] == "art21_par2" for c in sanction.decision["citations"])


def test_an_appeal_granted_after_payment_cancels_the_case_and_refunds_the_fine(
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    board_olimpia: Any,
    finance_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    first = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 20),
        text="Não houve infração.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 20),
    )
    appeal_judge(
        appeal=first,
        verdict=Verdict.UPHELD,
        reasoning="Provas suficientes.",
        decided_on=D(2026, 4, 1),
        actor=judge_olimpia,
        as_of=D(2026, 4, 1),
    )
    sanction = Sanction.objects.get(case=case)
    assert sanction.state == SanctionState.AWAITING_APPEAL  # art. 33: the fine is due already
    notify(case, agent_olimpia, D(2026, 4, 2), NoticePurpose.FIRST_DECISION)
    guide = fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2026, 4, 2))
    assert isinstance(guide, PaymentGuide)
    assert guide.due_on == D(2026, 5, 4)  # 30 dias corridos → Saturday 02/05 → Monday 04/05
    payment_register(
        actor=finance_olimpia,
        guide=guide,
        paid_on=D(2026, 4, 8),
        amount_brl=guide.amount_brl,
        method="pix",
        reference="E2E",
        as_of=D(2026, 4, 8),
    )
    second = appeal_file(
        case=case,
        instance=Instance.SECOND,
        filed_on=D(2026, 4, 9),
        text="Recurso.",
        actor=judge_olimpia,
        as_of=D(2026, 4, 9),
    )
    assert second.counts_from == D(2026, 4, 2) and not second.late
    # art. 32 is silent: art. 31 §2 by analogy, 30 days from filing → Saturday 09/05 → Monday 11/05
    assert second.judgment_deadline == D(2026, 5, 11)
    assert second.judgment_deadline_decision["inputs"]["facts"]["instance"] == "second"
    assert "INT-OLI-SECOND-INSTANCE-JUDGMENT-DEADLINE" in str(
        second.judgment_deadline_decision["interpretations"]
    )
    appeal_judge(
        appeal=second,
        verdict=Verdict.GRANTED,
        reasoning="Auto sem prova.",
        decided_on=D(2026, 4, 20),
        actor=board_olimpia,
        as_of=D(2026, 4, 20),
    )
    case.refresh_from_db()
    sanction.refresh_from_db()
    refund = Refund.objects.get()
    assert case.state == CaseState.CANCELLED and sanction.state == SanctionState.ANNULLED
    assert refund.amount_brl == guide.amount_brl and refund.status == RefundStatus.PENDING
    assert case.events.filter(kind="refund_due").exists()


def test_late_appeal_is_flagged_and_the_authority_may_refuse_to_hear_it(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    appeal = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 24),
        text="Defesa tardia.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 24),
    )
    assert appeal.late and appeal.deadline == D(2026, 3, 23)
    assert "FORA DO PRAZO" in case.events.get(kind="appeal_filed").note
    appeal_judge(
        appeal=appeal,
        verdict=Verdict.NOT_ADMITTED,
        reasoning="Intempestivo.",
        decided_on=D(2026, 3, 30),
        actor=judge_olimpia,
        as_of=D(2026, 3, 30),
    )
    case.refresh_from_db()
    assert case.state == CaseState.JUDGED_FIRST


def test_filing_twice_and_judging_without_the_role_are_refused(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, board_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    appeal = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Defesa.",
        actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )
    with pytest.raises(ValidationError) as twice:
        appeal_file(
            case=case,
            instance=Instance.FIRST,
            filed_on=D(2026, 3, 17),
            text="De novo.",
            actor=judge_olimpia,
            as_of=D(2026, 3, 17),
        )
    assert "já protocolado em 16/03/2026" in twice.value.message_dict["instance"][0]
    with pytest.raises(ValidationError) as wrong:
        appeal_judge(
            appeal=appeal,
            verdict=Verdict.UPHELD,
            reasoning="x",
            decided_on=D(2026, 3, 20),
            actor=board_olimpia,
            as_of=D(2026, 3, 20),
        )
    assert (
        "Autoridade administrativa (recurso de primeira instância)" in wrong.value.message_dict["judgment"][0]
    )
    with pytest.raises(ValidationError):
        appeal_file(
            case=case,
            instance=Instance.FIRST,
            filed_on=D(2026, 3, 17),
            text="x",
            actor=agent_olimpia,
            as_of=D(2026, 3, 17),
        )
    assert Appeal.objects.count() == 1 and not Judgment.objects.exists()


def test_a_fine_needs_the_notice_of_the_decision_and_is_exported_once_past_due(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, finance_olimpia: Any, olimpia_licensed: Any
) -> None:
    from apps.dueprocess.active_debt import to_csv, unpaid_final_fines

    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=plate(olimpia_licensed), on=D(2026, 3, 12)
    )
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    with pytest.raises(ValidationError, match="notifique"):
        fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2026, 3, 24))
    notify(case, agent_olimpia, D(2026, 3, 25), NoticePurpose.FINAL_DECISION)
    guide = fine_issue(sanction=sanction, actor=finance_olimpia, as_of=D(2026, 3, 25))
    assert isinstance(guide, PaymentGuide)
    assert guide.due_on == D(2026, 4, 24) and guide.status == GuideStatus.OPEN
    assert unpaid_final_fines(olimpia, D(2026, 4, 24)) == []
    rows = unpaid_final_fines(olimpia, D(2026, 4, 25))
    assert [r.case_number for r in rows] == [case.number] and rows[0].amount_brl == Decimal("576.30")
    assert rows[0].debtor_document.count(".") == 2  # a formatted CPF
    assert case.number in to_csv(rows)


def test_clandestine_transport_fines_and_bans_the_offender_found_in_the_registry(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    person = olimpia_licensed[0].person
    case = open_case(
        olimpia,
        agent_olimpia,
        code="OLI-27",
        plate="XYZ1A23",
        on=D(2026, 3, 12),
        offender_name=person.name,
        offender_document=person.cpf,
    )
    assert case.clandestine and case.operator is None
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    assert sanction.fine_quantity == Decimal(75) and sanction.ban_start == D(2026, 3, 24)
    ban = Ban.objects.get(person=person)
    assert ban.reason_code == "art27" and ban.until == sanction.ban_until
