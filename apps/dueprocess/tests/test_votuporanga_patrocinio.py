"""Votuporanga's ladder (arts. 12–15) step by step and its recidivism window, the JARI as second instance;
Patrocínio's single defence and its CTB referral (no municipal fine)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.dueprocess.choices import Instance, SanctionState, Verdict
from apps.dueprocess.models import Sanction
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.enforcement.choices import CaseState, NoticePurpose
from apps.lawconfig.services import interpretation_choose
from apps.licensing.choices import PermitState
from apps.licensing.sweep import lift_suspensions

from .helpers import final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date


def _step(municipality: Any, agent: Any, judge: Any, plate: str, occurred: dt.date) -> Sanction:
    case = open_case(municipality, agent, code="VOT-9-I", plate=plate, on=occurred)
    return final_without_appeal(case, agent, judge, occurred, occurred + dt.timedelta(days=40))


def test_every_step_of_the_ladder_up_to_cassation(
    votuporanga: Any, agent_votuporanga_: Any, judge_votuporanga: Any, votuporanga_licensed: Any
) -> None:
    licensed, permit = votuporanga_licensed
    plate = licensed.vehicle.plate
    args = (votuporanga, agent_votuporanga_, judge_votuporanga, plate)
    warning = _step(*args, D(2026, 3, 12))
    assert [p["kind"] for p in warning.penalties] == ["warning"] and not warning.recidivism
    fine = _step(*args, D(2026, 5, 4))
    assert (fine.fine_quantity, fine.fine_unit) == (Decimal(85), "ufm") and fine.recidivism
    first_suspension = _step(*args, D(2026, 6, 22))
    assert first_suspension.suspension_days == 30
    final_on = first_suspension.decided_final_on
    assert final_on is not None and first_suspension.suspension_end == final_on + dt.timedelta(days=29)
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED and permit.suspended_until == first_suspension.suspension_end
    assert first_suspension.suspension_end is not None
    lift_suspensions(first_suspension.suspension_end + dt.timedelta(days=1))  # the daily sweep reactivates it
    permit.refresh_from_db()
    assert permit.state == PermitState.ACTIVE
    second_suspension = _step(*args, D(2026, 9, 1))
    assert second_suspension.suspension_days == 60
    assert second_suspension.suspension_end is not None
    lift_suspensions(second_suspension.suspension_end + dt.timedelta(days=1))
    cassation = _step(*args, D(2026, 12, 10))
    permit.refresh_from_db()
    assert cassation.cassation and permit.state == PermitState.REVOKED


def test_the_suspension_dates_are_the_engines_under_the_municipalitys_reading(
    votuporanga: Any, agent_votuporanga_: Any, judge_votuporanga: Any, votuporanga_licensed: Any
) -> None:
    interpretation_choose(
        actor=None,
        municipality=votuporanga,
        regime_id="votuporanga_sp_escolar",
        interpretation_id="INT-VOT-SUSPENSION-START",
        option="day_after_final_decision",
        decided_by_act="Decreto 2/2026",
        decided_on=D(2026, 1, 2),
    )
    args = (votuporanga, agent_votuporanga_, judge_votuporanga, votuporanga_licensed[0].vehicle.plate)
    _step(*args, D(2026, 3, 12))
    _step(*args, D(2026, 5, 4))
    suspension = _step(*args, D(2026, 6, 22))
    final_on = suspension.decided_final_on
    assert final_on is not None and suspension.suspension_days == 30
    assert suspension.suspension_start == final_on + dt.timedelta(
        days=1
    )  # art. 14 is silent: the reading chosen
    assert suspension.suspension_end == final_on + dt.timedelta(days=30)
    assert suspension.penalties[0]["start"] == suspension.suspension_start.isoformat()


def test_outside_a_twelve_month_window_the_ladder_starts_again(
    votuporanga: Any, agent_votuporanga_: Any, judge_votuporanga: Any, votuporanga_licensed: Any
) -> None:
    interpretation_choose(
        actor=None,
        municipality=votuporanga,
        regime_id="votuporanga_sp_escolar",
        interpretation_id="INT-VOT-RECIDIVISM-WINDOW",
        option="twelve_months",
        decided_by_act="Decreto 1/2026",
        decided_on=D(2026, 1, 2),
    )
    plate = votuporanga_licensed[0].vehicle.plate
    args = (votuporanga, agent_votuporanga_, judge_votuporanga, plate)
    first = _step(*args, D(2026, 3, 12))
    inside = _step(*args, D(2026, 6, 1))
    assert inside.recidivism and inside.fine_quantity == Decimal(85)
    assert first.decided_final_on is not None and inside.decided_final_on is not None
    assert first.decided_final_on < inside.decided_final_on
    outside = _step(*args, inside.decided_final_on + dt.timedelta(days=400))  # past 12 months from both
    assert [p["kind"] for p in outside.penalties] == ["warning"] and not outside.recidivism


def test_the_jari_judges_the_second_instance(
    votuporanga: Any,
    agent_votuporanga_: Any,
    judge_votuporanga: Any,
    jari_votuporanga: Any,
    votuporanga_licensed: Any,
) -> None:
    case = open_case(
        votuporanga,
        agent_votuporanga_,
        code="VOT-9-I",
        plate=votuporanga_licensed[0].vehicle.plate,
        on=D(2026, 3, 12),
    )
    notify(case, agent_votuporanga_, D(2026, 3, 12))
    first = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 20),
        text="Defesa.",
        actor=judge_votuporanga,
        as_of=D(2026, 3, 20),
    )
    assert first.deadline == D(2026, 3, 27)
    appeal_judge(
        appeal=first,
        verdict=Verdict.UPHELD,
        reasoning="Mantido.",
        decided_on=D(2026, 3, 25),
        actor=judge_votuporanga,
        as_of=D(2026, 3, 25),
    )
    assert not Sanction.objects.exists()  # the fine waits for finality here
    notify(case, agent_votuporanga_, D(2026, 3, 26), NoticePurpose.FIRST_DECISION)
    jari = appeal_file(
        case=case,
        instance=Instance.SECOND,
        filed_on=D(2026, 3, 30),
        text="À JARI.",
        actor=judge_votuporanga,
        as_of=D(2026, 3, 30),
    )
    with pytest.raises(ValidationError):
        appeal_judge(
            appeal=jari,
            verdict=Verdict.UPHELD,
            reasoning="x",
            decided_on=D(2026, 4, 2),
            actor=judge_votuporanga,
            as_of=D(2026, 4, 2),
        )
    appeal_judge(
        appeal=jari,
        verdict=Verdict.UPHELD,
        reasoning="JARI mantém.",
        decided_on=D(2026, 4, 2),
        actor=jari_votuporanga,
        as_of=D(2026, 4, 2),
    )
    case.refresh_from_db()
    sanction = Sanction.objects.get(case=case)
    assert case.state == CaseState.FINAL and sanction.state == SanctionState.FINAL
    assert sanction.decided_final_on == D(2026, 4, 2) and sanction.finality_reason == "last_instance"


def test_patrocinio_has_one_defence_and_no_municipal_fine(
    patrocinio: Any, agent_patrocinio: Any, judge_patrocinio: Any
) -> None:
    case = open_case(
        patrocinio,
        agent_patrocinio,
        code="PAT-3",
        plate="PAT1A23",
        on=D(2026, 3, 12),
        offender_name="Motorista Sem Cadastro",
        offender_document="52998224725",
    )
    notify(case, agent_patrocinio, D(2026, 3, 13))
    defence = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Defesa.",
        actor=judge_patrocinio,
        as_of=D(2026, 3, 16),
    )
    assert defence.deadline is not None and defence.judgment_deadline is not None
    appeal_judge(
        appeal=defence,
        verdict=Verdict.UPHELD,
        reasoning="Mantido.",
        decided_on=D(2026, 3, 30),
        actor=judge_patrocinio,
        as_of=D(2026, 3, 30),
    )
    case.refresh_from_db()
    sanction = Sanction.objects.get(case=case)
    assert case.state == CaseState.FINAL and sanction.fine_quantity is None
    assert any(c["dispositivo"] == "art17" for c in sanction.decision["citations"])
    with pytest.raises(ValidationError, match="2ª instância"):
        appeal_file(
            case=case,
            instance=Instance.SECOND,
            filed_on=D(2026, 3, 31),
            text="x",
            actor=judge_patrocinio,
            as_of=D(2026, 3, 31),
        )
