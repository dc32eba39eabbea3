"""The procedure shapes real laws take (issue 24): per-infraction procedures with their own chains and ceiling, a
nullity for each notice kind, non-suspensive instances, a precautionary suspension for the proceeding's duration
and recidivism ordered by legal instants. Each is declared in the regime folder, validated at load with a
Portuguese message, and tried here on a copy of the demo regime."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.blocks.recidivism import Anchor, CountFrom, RecidivismRule, Scope, recidivism
from lawcode.calendar import LegalCalendar
from lawcode.errors import RegimeDefinitionError
from lawcode.facts import PriorSanction
from lawcode.regime import Regime

Copy = Callable[[dict[str, str]], Regime]
FIXTURE = Path(__file__).parent / "fixtures" / "core" / "demo_sp"
DEMO_PROCEDURE = (FIXTURE / "procedure.yaml").read_text(encoding="utf-8")
DEMO_PENALTIES = (FIXTURE / "penalties.yaml").read_text(encoding="utf-8")
DEMO_LABELS = (FIXTURE / "labels.yaml").read_text(encoding="utf-8")
# A second instance needs its body in labels.yaml.
LABELS_TWO = DEMO_LABELS.replace(
    "verdicts:",
    "  second: {name: Secretário de Transportes, kind: single, decision: single, cite: art2}\nverdicts:",
    1,
)

TWO_INSTANCES = """due_process:
  instances:
    - key: first
      label: Defesa
      cite: art1
      judged_by: judging_authority
      engine_instance:
        absent: A lei de teste não fixa prazo de defesa.
      suspensive: true
      suspensive_cite: art1
    - key: second
      label: Recurso ao Secretário
      cite: art2
      judged_by: appeal_board
      engine_instance:
        absent: A lei de teste não fixa prazo de recurso.
      suspensive: {suspensive}
      suspensive_cite: art2A
"""

CLANDESTINE_PROCEDURE = """procedures:
  - key: clandestine
    label: Processo do transporte clandestino
    cite: art2A
    infractions: [DEM-2A]
    counting: calendar_days
    extend_to_business_day: false
    steps:
      - {kind: defence, label: Defesa escrita, days: 15, instance: first, cite: art2A}
      - {kind: allegations, label: Alegações finais, days: 10, instance: first, cite: art2A}
      - {kind: judgment, label: Julgamento, days: 20, instance: first, cite: art2A}
      - {kind: appeal, label: Recurso ao Secretário, days: 10, instance: second, cite: art2A}
      - {kind: appeal_judgment, label: Julgamento do recurso, days: 20, instance: second, cite: art2A}
    ceiling: {days: 90, cite: art2A_par1}
"""


def with_instances(suspensive: str = "true", extra: str = "") -> dict[str, str]:
    head, _, rest = DEMO_PROCEDURE.partition("  fine_due_on_first_condemnation:")
    assert head.startswith("due_process:")
    procedure = (
        TWO_INSTANCES.format(suspensive=suspensive) + "  fine_due_on_first_condemnation:" + rest + extra
    )
    return {"procedure.yaml": procedure, "labels.yaml": LABELS_TWO}


def error_of(demo_copy: Copy, replacement: dict[str, str]) -> RegimeDefinitionError:
    with pytest.raises(RegimeDefinitionError) as error:
        demo_copy(replacement)
    return error.value


def calendar(regime: Regime) -> LegalCalendar:
    return LegalCalendar(subdivision=regime.uf)


# --- procedures per infraction -------------------------------------------------------------------------------


def test_an_infraction_follows_its_own_procedure_with_its_chain_and_ceiling(demo_copy: Copy) -> None:
    regime = demo_copy(with_instances(extra=CLANDESTINE_PROCEDURE))
    special = regime.procedure.procedure_for("DEM-2A")
    assert special is not None and special.key == "clandestine"
    defence = special.filing_step("first")
    appeal = special.filing_step("second")
    assert defence is not None and defence.days == 15
    assert appeal is not None and appeal.days == 10
    judged = special.judgment_step("second")
    assert judged is not None and judged.days == 20
    auto = dt.date(2026, 3, 2)
    assert special.deadline(defence, auto, calendar(regime)).end == dt.date(2026, 3, 17)
    ceiling = special.ceiling_deadline(auto, calendar(regime))
    assert ceiling is not None and ceiling.end == dt.date(2026, 5, 31)
    chain = special.chain(auto, calendar(regime))
    assert chain.last_end == dt.date(2026, 5, 16)  # 15 + 10 + 20 + 10 + 20 days, one after the other
    assert not chain.exceeds_ceiling
    late = special.chain(auto, calendar(regime), {"allegations": dt.date(2026, 4, 30)})
    assert late.exceeds_ceiling  # acts done late push the planned end past the 90 days
    assert "Defesa escrita: 15 dias corridos (art2A)" in special.describe_pt()
    assert special.ceiling_pt(auto, calendar(regime)) == "Processo a concluir até 31/05/2026 (art2A_par1)"


def test_an_infraction_without_its_own_procedure_follows_the_ordinary_one(demo_copy: Copy) -> None:
    regime = demo_copy({})
    assert regime.procedure.procedures == ()
    assert regime.procedure.procedure_for("DEM-2A") is None


def test_a_procedure_naming_an_infraction_outside_the_catalog_is_refused(demo_copy: Copy) -> None:
    error = error_of(demo_copy, with_instances(extra=CLANDESTINE_PROCEDURE.replace("[DEM-2A]", "[DEM-99]")))
    assert "DEM-99" in error.message_pt and "catálogo" in error.message_pt
    assert error.line is not None


def test_steps_out_of_order_are_refused_in_portuguese(demo_copy: Copy) -> None:
    swapped = CLANDESTINE_PROCEDURE.replace("kind: allegations", "kind: appeal_judgment", 1)
    error = error_of(demo_copy, with_instances(extra=swapped))
    assert "fora de ordem" in error.message_pt


def test_a_step_of_an_instance_the_law_lacks_is_refused(demo_copy: Copy) -> None:
    text = DEMO_PROCEDURE + CLANDESTINE_PROCEDURE  # the demo has only a first instance
    error = error_of(demo_copy, {"procedure.yaml": text})
    assert "instância 'second'" in error.message_pt


def test_a_step_with_no_days_is_refused(demo_copy: Copy) -> None:
    error = error_of(demo_copy, with_instances(extra=CLANDESTINE_PROCEDURE.replace("days: 15", "days: 0")))
    assert "inteiro positivo" in error.message_pt


def test_an_unknown_step_kind_lists_the_known_ones(demo_copy: Copy) -> None:
    error = error_of(
        demo_copy, with_instances(extra=CLANDESTINE_PROCEDURE.replace("kind: defence", "kind: x"))
    )
    assert "defence (defesa escrita)" in error.message_pt


# --- nullity of the notice of autuação ------------------------------------------------------------------------

NAI_NULLITY = """nullity:
  rules:
    - limit: autuacao_notice
      cite: art2A_par1
      days: 30
      counting: calendar_days
      extend_to_business_day: false
      reason: A notificação da autuação não foi expedida em 30 dias da infração; o auto é nulo.
"""


def nai(text: str = NAI_NULLITY) -> dict[str, str]:
    head, _, _ = DEMO_PROCEDURE.partition("nullity:")
    return {"procedure.yaml": head + text}


def test_a_late_notice_of_autuacao_voids_the_case_on_its_own_limit(demo_copy: Copy) -> None:
    regime = demo_copy(nai())
    rule = regime.procedure.nullity.rule("autuacao_notice")
    assert rule is not None and rule.days == 30
    assert regime.procedure.nullity.rule("penalty_notice") is None  # a distinct act, not declared
    infraction = dt.date(2026, 3, 2)
    assert rule.last_day(infraction, calendar(regime)).end == dt.date(2026, 4, 1)
    assert rule.lost(infraction, dt.date(2026, 4, 2), dt.date(2026, 4, 10), calendar(regime))
    assert not rule.lost(infraction, dt.date(2026, 4, 1), dt.date(2026, 4, 10), calendar(regime))
    assert not rule.lost(infraction, None, dt.date(2026, 4, 1), calendar(regime))
    assert rule.lost(infraction, None, dt.date(2026, 4, 2), calendar(regime))


def test_the_notice_of_autuacao_limit_must_say_its_days(demo_copy: Copy) -> None:
    error = error_of(demo_copy, nai(NAI_NULLITY.replace("      days: 30\n", "")))
    assert "days" in error.message


def test_the_penalty_notice_limit_takes_no_declared_days(demo_copy: Copy) -> None:
    text = NAI_NULLITY.replace("autuacao_notice", "penalty_notice")
    error = error_of(demo_copy, nai(text))
    assert "pergunta do motor" in error.message_pt


# --- non-suspensive instances --------------------------------------------------------------------------------


def test_effects_apply_after_the_instance_whose_appeal_does_not_suspend(demo_copy: Copy) -> None:
    regime = demo_copy(with_instances(suspensive="false"))
    due = regime.procedure.due_process
    assert due.effects_after is not None and due.effects_after.key == "first"
    text = due.effects_explanation_pt()
    assert "«Defesa»" in text and "«Recurso ao Secretário» não tem efeito suspensivo (art2A)" in text


def test_effects_wait_for_finality_when_every_appeal_suspends(demo_copy: Copy) -> None:
    due = demo_copy(with_instances()).procedure.due_process
    assert due.effects_after is None
    assert "aguardam a decisão definitiva" in due.effects_explanation_pt()


def test_a_first_instance_without_suspensive_effect_is_refused(demo_copy: Copy) -> None:
    text = DEMO_PROCEDURE.replace("suspensive: true", "suspensive: false", 1)
    error = error_of(demo_copy, {"procedure.yaml": text})
    assert "applies: at_auto" in error.message_pt


# --- precautionary suspension for the proceeding -------------------------------------------------------------

PROCEEDING_SUSPENSION = """  - key: precautionary
    label: Suspensão cautelar
    mechanism: precautionary_suspension
    target: permit
    cite: art2A
    days: proceeding
"""


def test_a_precautionary_suspension_may_last_while_the_proceeding_runs(demo_copy: Copy) -> None:
    regime = demo_copy({"penalties.yaml": DEMO_PENALTIES + PROCEEDING_SUSPENSION})
    assert regime.penalties is not None
    kind = regime.penalties.get("precautionary")
    assert kind.for_proceeding and kind.immediate and kind.days_parameter is None


def test_a_suspension_for_the_proceeding_takes_no_days_parameter(demo_copy: Copy) -> None:
    text = DEMO_PENALTIES + PROCEEDING_SUSPENSION + "    days_parameter: whatever\n"
    error = error_of(demo_copy, {"penalties.yaml": text})
    assert "enquanto durar o processo" in error.message_pt


# --- recidivism by instant -----------------------------------------------------------------------------------

RULE = RecidivismRule(Scope.GENERIC, None, Anchor.PRIOR_FINAL, CountFrom.FIRST)
DAY = dt.date(2026, 5, 4)


def prior(final_at: dt.datetime | None) -> PriorSanction:
    return PriorSanction("X-1", dt.date(2026, 1, 10), final_on=DAY, final_at=final_at)


def test_a_prior_final_earlier_the_same_day_counts_when_the_instants_say_so() -> None:
    found = recidivism(
        [prior(dt.datetime(2026, 5, 4, 9, 0))], "X-1", DAY, RULE, at=dt.datetime(2026, 5, 4, 15)
    )
    assert found.is_recidivism
    assert "04/05/2026 09:00, antes do instante da nova infração (04/05/2026 15:00)" in found.ordering_pt(
        DAY, dt.datetime(2026, 5, 4, 15)
    )


def test_a_prior_final_later_the_same_day_does_not_count() -> None:
    at = dt.datetime(2026, 5, 4, 8, 0)
    found = recidivism([prior(dt.datetime(2026, 5, 4, 9, 0))], "X-1", DAY, RULE, at=at)
    assert not found.is_recidivism
    assert "depois do instante da nova infração" in found.ordering_pt(DAY, at)


def test_without_instants_the_same_day_does_not_count_and_says_why() -> None:
    found = recidivism([prior(None)], "X-1", DAY, RULE)
    assert not found.is_recidivism
    assert "no mesmo dia da nova infração (04/05/2026), sem o instante" in found.ordering_pt(DAY)


def test_a_prior_final_the_day_before_counts_by_day_as_before() -> None:
    older = PriorSanction("X-1", dt.date(2026, 1, 10), final_on=DAY - dt.timedelta(days=1))
    found = recidivism([older], "X-1", DAY, RULE)
    assert found.is_recidivism and found.ordering == ()


def test_the_recidivism_line_says_which_instant_decided() -> None:
    at = dt.datetime(2026, 5, 4, 15, 0)
    counted = recidivism([prior(dt.datetime(2026, 5, 4, 9, 0))], "X-1", DAY, RULE, at=at)
    assert counted.describe_pt().startswith(
        "reincidência: 1 infração(ões) anterior(es) considerada(s) (10/01/2026) — "
    )
    assert "definitiva em 04/05/2026 09:00, antes do instante da nova infração (04/05/2026 15:00)" in (
        counted.describe_pt()
    )
    same_day = recidivism([prior(None)], "X-1", DAY, RULE)
    assert same_day.describe_pt().startswith("sem infração anterior que configure reincidência — ")
    assert "sem o instante de uma delas: não conta" in same_day.describe_pt()
