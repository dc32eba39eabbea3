"""The scenario files exercise every interpretation option and every question the regime answers."""

from __future__ import annotations

from pathlib import Path

from lawcode.regime import Regime
from lawcode.scenarios import ScenarioCase, load_scenario_file

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _cases() -> list[ScenarioCase]:
    return [case for path in sorted(SCENARIOS.glob("*.yaml")) for case in load_scenario_file(path).cases]


def test_there_are_at_least_35_scenarios() -> None:
    assert len(_cases()) >= 35


def test_every_interpretation_option_has_a_scenario(regime: Regime) -> None:
    used: set[tuple[str, str]] = set()
    for case in _cases():
        overrides = dict((case.config or {}).get("interpretations") or {})
        used |= {(int_id, str(option)) for int_id, option in overrides.items()}
        used |= {(int_id, str(option)) for int_id, option in case.expect.interpretations.items() if option}
    # Interpretations read only by a declaration (procedure.yaml's electronic notice) are applied by the apps
    # when a notice is sent or its lapse runs, and tested there (apps/portal, apps/enforcement): no rule
    # decides with them, so no scenario can record them.
    declared = (
        regime.procedure.electronic_notice.interpretations
        if regime.procedure.electronic_notice
        else frozenset()
    )
    missing = sorted(
        (int_id, option)
        for int_id, interpretation in regime.interpretations.items()
        if int_id not in declared
        for option in interpretation.options
        if (int_id, option) not in used
    )
    assert not missing, f"interpretation options without a scenario: {missing}"


def test_every_question_the_regime_answers_has_scenarios(regime: Regime) -> None:
    asked = {case.question for case in _cases()}
    assert set(regime.questions()) <= asked
