"""The procedure shapes a law may declare in procedure.yaml / penalties.yaml, applied by due process: a late
notice of autuação voiding the case, effects applied after an instance whose appeal does not suspend them, an
infraction's own procedure giving its deadlines, and a precautionary suspension lasting while the proceeding
runs. None of the shipped laws declares them, so each test swaps the declaration into one regime, as a new law
would write it; the apps' code is the same for every regime."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from apps.dueprocess import lawbridge
from apps.dueprocess.choices import EffectState, Instance, Verdict
from apps.dueprocess.models import CaseNullity, Effect
from apps.dueprocess.services import appeal_file, appeal_judge
from apps.dueprocess.services.nullity import void_lapsed_cases
from apps.dueprocess.sweep import hold_suspensions_awaiting_inspection
from apps.enforcement import lawbridge as enforcement_lawbridge
from apps.enforcement.choices import CaseState, NoticePurpose
from apps.enforcement.models import InfractionCase
from apps.enforcement.timeline import case_timeline
from apps.licensing.choices import PermitState
from lawcode.deadlines import DayCounting
from lawcode.penalties import load_penalties
from lawcode.procedure import Ceiling, Nullity, NullityRule, ProcedureStep, SpecialProcedure
from lawcode.registry import get_regime

from .helpers import notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date
OLIMPIA, PATROCINIO = "olimpia_sp_escolar", "patrocinio_mg_aplicativo"


def _swap_procedure(monkeypatch: pytest.MonkeyPatch, regime_id: str, **changes: Any) -> None:
    regime = get_regime(regime_id)
    monkeypatch.setattr(regime, "procedure", dataclasses.replace(regime.procedure, **changes))


# --- the notice of autuação (NAI), a distinct act with its own limit and nullity ---------------------------

NAI_REASON = "A notificação da autuação não foi expedida em 30 dias da infração: o auto é nulo."


@pytest.fixture
def nai_nullity(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    declared = get_regime(PATROCINIO).procedure.nullity
    rule = NullityRule(
        "autuacao_notice", "art19_par1", NAI_REASON, "teste", days=30, counting=DayCounting.CALENDAR
    )
    _swap_procedure(monkeypatch, PATROCINIO, nullity=Nullity(declared.provision, (*declared.rules, rule)))
    yield


def _pat_case(patrocinio: Any, agent: Any, plate: str) -> InfractionCase:
    return open_case(
        patrocinio,
        agent,
        code="PAT-3",
        plate=plate,
        on=D(2026, 3, 12),
        offender_name="Motorista Sem Cadastro",
        offender_document="52998224725",
    )


def test_a_late_notice_of_autuacao_voids_the_case_with_its_article(
    nai_nullity: None, patrocinio: Any, agent_patrocinio: Any
) -> None:
    late = _pat_case(patrocinio, agent_patrocinio, "PAT1A23")
    in_time = _pat_case(patrocinio, agent_patrocinio, "PAT1A24")
    notify(in_time, agent_patrocinio, D(2026, 4, 11))  # the 30th day after the infraction
    assert void_lapsed_cases(D(2026, 4, 11)) == 0  # the last day still counts
    assert void_lapsed_cases(D(2026, 4, 12)) == 1
    late.refresh_from_db()
    in_time.refresh_from_db()
    assert late.state == CaseState.CANCELLED and in_time.state != CaseState.CANCELLED
    nullity = CaseNullity.objects.get(case=late)
    assert (nullity.limit, nullity.limit_day, nullity.cite) == (
        "autuacao_notice",
        D(2026, 4, 11),
        "art19_par1",
    )
    assert nullity.reason == NAI_REASON and "art. 19, § 1º" in nullity.basis
    assert void_lapsed_cases(D(2026, 4, 13)) == 0  # voided once


def test_a_notice_of_autuacao_sent_late_does_not_save_the_case(
    nai_nullity: None, patrocinio: Any, agent_patrocinio: Any
) -> None:
    case = _pat_case(patrocinio, agent_patrocinio, "PAT1A25")
    notify(case, agent_patrocinio, D(2026, 4, 12))
    assert void_lapsed_cases(D(2026, 4, 13)) == 1
    assert CaseNullity.objects.get(case=case).limit == "autuacao_notice"


def test_the_case_timeline_shows_the_notice_of_autuacao_limit_with_its_article(
    nai_nullity: None, patrocinio: Any, agent_patrocinio: Any
) -> None:
    case = _pat_case(patrocinio, agent_patrocinio, "PAT1A27")
    marks = {mark.label: mark for mark in case_timeline(case, D(2026, 4, 1))}
    label = next(label for label in marks if label.startswith("Limite para notificar a autuação"))
    assert "art. 19, § 1º" in label and marks[label].on == D(2026, 4, 11)
    assert marks[label].detail == NAI_REASON


def test_without_the_declaration_a_case_without_notice_is_not_voided(
    patrocinio: Any, agent_patrocinio: Any
) -> None:
    case = _pat_case(patrocinio, agent_patrocinio, "PAT1A26")
    assert void_lapsed_cases(D(2026, 6, 1)) == 0
    case.refresh_from_db()
    assert case.state != CaseState.CANCELLED


# --- an instance whose appeal has no suspensive effect --------------------------------------------------------


def _second_not_suspensive(monkeypatch: pytest.MonkeyPatch) -> None:
    due = get_regime(OLIMPIA).procedure.due_process
    second = dataclasses.replace(due.instances[1], suspensive=False)
    _swap_procedure(
        monkeypatch, OLIMPIA, due_process=dataclasses.replace(due, instances=(due.instances[0], second))
    )


def _condemn_first(case: InfractionCase, agent: Any, judge: Any) -> None:
    notify(case, agent, D(2026, 3, 13))
    defence = appeal_file(
        case=case,
        instance=Instance.FIRST,
        filed_on=D(2026, 3, 16),
        text="Defesa.",
        actor=judge,
        as_of=D(2026, 3, 16),
    )
    appeal_judge(
        appeal=defence,
        verdict=Verdict.UPHELD,
        reasoning="Mantido.",
        decided_on=D(2026, 3, 20),
        actor=judge,
        as_of=D(2026, 3, 20),
    )


def test_effects_apply_after_the_first_instance_when_the_second_does_not_suspend_them(
    monkeypatch: pytest.MonkeyPatch,
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    _second_not_suspensive(monkeypatch)
    plate = str(olimpia_licensed[0].vehicle.plate)
    case = open_case(olimpia, agent_olimpia, code="OLI-25-IV", plate=plate, on=D(2026, 3, 12))
    _condemn_first(case, agent_olimpia, judge_olimpia)
    case.refresh_from_db()
    assert case.state == CaseState.JUDGED_FIRST  # not final: the second instance may still be asked
    rows = list(Effect.objects.filter(case=case))
    assert rows and all(row.sanction is None for row in rows)
    assert {row.penalty_key for row in rows} >= {"suspension"}
    assert [row.state for row in rows if row.penalty_key == "suspension"] == [EffectState.APPLIED], [
        (row.state, row.note) for row in rows
    ]
    notes = [e.note for e in case.events.all()]
    assert any("não tem efeito suspensivo (Lei 5.171/2025 (Olímpia), art. 21" in note for note in notes), (
        notes
    )


def test_a_granted_non_suspensive_appeal_lifts_the_effects_already_applied(
    monkeypatch: pytest.MonkeyPatch,
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    board_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    _second_not_suspensive(monkeypatch)
    permit = olimpia_licensed[1]
    case = open_case(
        olimpia, agent_olimpia, code="OLI-25-IV", plate=str(permit.vehicle.plate), on=D(2026, 3, 12)
    )
    _condemn_first(case, agent_olimpia, judge_olimpia)
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED  # applied at the first condemnation
    notify(
        InfractionCase.objects.get(pk=case.pk), agent_olimpia, D(2026, 3, 23), NoticePurpose.FIRST_DECISION
    )
    second = appeal_file(
        case=case, instance=Instance.SECOND, filed_on=D(2026, 3, 24), text="Recurso.", actor=judge_olimpia,
        as_of=D(2026, 3, 24),
    )  # fmt: skip
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED  # the appeal does not suspend the effects
    appeal_judge(
        appeal=second,
        verdict=Verdict.GRANTED,
        reasoning="Auto sem prova.",
        decided_on=D(2026, 3, 30),
        actor=board_olimpia,
        as_of=D(2026, 3, 30),
    )
    permit.refresh_from_db()
    row = Effect.objects.get(case=case, penalty_key="suspension")
    assert permit.state == PermitState.ACTIVE and row.state == EffectState.LIFTED


def test_effects_wait_for_finality_when_the_second_instance_suspends_them(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    plate = str(olimpia_licensed[0].vehicle.plate)
    case = open_case(olimpia, agent_olimpia, code="OLI-25-IV", plate=plate, on=D(2026, 3, 12))
    _condemn_first(case, agent_olimpia, judge_olimpia)
    assert not Effect.objects.filter(case=case, penalty_key="suspension").exists()


# --- an infraction's own procedure ------------------------------------------------------------------------------


def test_an_infraction_with_its_own_procedure_gets_its_deadlines_and_ceiling(
    monkeypatch: pytest.MonkeyPatch,
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    steps = (
        ProcedureStep("defence", "Defesa escrita", 15, "first", "art27"),
        ProcedureStep("judgment", "Julgamento", 20, "first", "art27"),
        ProcedureStep("appeal", "Recurso ao Secretário", 10, "second", "art32"),
    )
    special = SpecialProcedure(
        "clandestine", "Processo do transporte clandestino", "art27", ("OLI-25-IV",), steps,
        DayCounting.CALENDAR, False, Ceiling(90, "art27"), "teste",
    )  # fmt: skip
    _swap_procedure(monkeypatch, OLIMPIA, procedures=(special,))
    plate = str(olimpia_licensed[0].vehicle.plate)
    case = open_case(olimpia, agent_olimpia, code="OLI-25-IV", plate=plate, on=D(2026, 3, 12))
    other = open_case(olimpia, agent_olimpia, code="OLI-24-III", plate=plate, on=D(2026, 3, 12))
    deadline = lawbridge.appeal_deadline(case, Instance.FIRST, D(2026, 3, 13), D(2026, 3, 13))
    assert deadline is not None and deadline.end == D(2026, 3, 28)
    assert (
        "Defesa escrita: 15 dias corridos" in deadline.message
        and "transporte clandestino" in deadline.message
    )
    ordinary = lawbridge.appeal_deadline(other, Instance.FIRST, D(2026, 3, 13), D(2026, 3, 13))
    assert ordinary is None or ordinary.end != D(2026, 3, 28)
    judged = lawbridge.judgment_deadline(case, Instance.FIRST, D(2026, 3, 16), D(2026, 3, 16))
    assert judged is not None and judged.end == D(2026, 4, 5)
    assert (
        lawbridge.proceeding_ceiling(case)
        == "Processo a concluir até 10/06/2026 (Lei 5.171/2025 (Olímpia), art. 27)"
    )
    assert lawbridge.proceeding_ceiling(other) is None
    auto = enforcement_lawbridge.defence_deadline(case, D(2026, 3, 13), D(2026, 3, 13))
    assert auto is not None and auto.value == D(2026, 3, 28) and "Defesa escrita: 15 dias" in auto.message
    marks = {mark.label: mark for mark in case_timeline(case, D(2026, 3, 20))}
    ceiling = marks["Conclusão do processo: Processo do transporte clandestino"]
    assert ceiling.on == D(2026, 6, 10) and "art. 27" in ceiling.detail


# --- a precautionary suspension for the proceeding's duration ------------------------------------------------

FOR_PROCEEDING = """  - key: proceeding_suspension
    label: Suspensão cautelar
    mechanism: precautionary_suspension
    target: permit
    cite: art24_parun
    days: proceeding
"""


def _declare_for_proceeding(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    regime = get_regime(OLIMPIA)
    original = (regime.folder / "penalties.yaml").read_text(encoding="utf-8")
    path = tmp_path / "penalties.yaml"
    path.write_text(original.rstrip("\n") + "\n" + FOR_PROCEEDING, encoding="utf-8")
    monkeypatch.setattr(regime, "penalties", load_penalties(path, regime.citer, regime.parameters, OLIMPIA))
    spec = regime.rules["sanction"]

    def function(ctx: Any, facts: Any) -> Any:
        result = spec.function(ctx, facts)
        if facts.decided_final_on is None:  # the auto: suspended while the proceeding runs
            result.result["penalties"] = [*result.result["penalties"], {"kind": "proceeding_suspension"}]
        return result

    monkeypatch.setitem(regime.rules, "sanction", dataclasses.replace(spec, function=function))


def test_a_suspension_for_the_proceeding_is_held_while_it_runs_and_ends_with_it(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    _declare_for_proceeding(monkeypatch, tmp_path)
    permit = olimpia_licensed[1]
    case = open_case(
        olimpia, agent_olimpia, code="OLI-25-IV", plate=str(permit.vehicle.plate), on=D(2026, 3, 12)
    )
    row = Effect.objects.get(case=case, penalty_key="proceeding_suspension")
    assert (
        row.state == EffectState.APPLIED and row.ends_on is None and "enquanto durar o processo" in row.note
    )
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED
    assert hold_suspensions_awaiting_inspection(D(2026, 3, 20)) == 1
    permit.refresh_from_db()
    assert permit.suspended_until == D(2026, 3, 20)
    notify(case, agent_olimpia, D(2026, 3, 13))
    defence = appeal_file(
        case=case, instance=Instance.FIRST, filed_on=D(2026, 3, 16), text="Defesa.", actor=judge_olimpia,
        as_of=D(2026, 3, 16),
    )  # fmt: skip
    appeal_judge(
        appeal=defence,
        verdict=Verdict.GRANTED,
        reasoning="Auto improcedente.",
        decided_on=D(2026, 3, 20),
        actor=judge_olimpia,
        as_of=D(2026, 3, 20),
    )
    row.refresh_from_db()
    permit.refresh_from_db()
    assert row.state == EffectState.LIFTED and permit.state == PermitState.ACTIVE
