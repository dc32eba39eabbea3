"""The scenarios exercise every interpretation option and every rule of the regime."""

from __future__ import annotations

from pathlib import Path

from lawcode.regime import Regime
from lawcode.scenarios import load_scenario_file

from .conftest import FOLDER

SCENARIOS = sorted((FOLDER / "scenarios").glob("*.yaml"))


def _cases() -> list[object]:
    return [case for path in SCENARIOS for case in load_scenario_file(Path(path)).cases]


def test_at_least_35_scenarios() -> None:
    assert len(_cases()) >= 35


def test_every_interpretation_option_has_a_scenario(regime: Regime) -> None:
    seen: set[tuple[str, str]] = set()
    for case in _cases():
        for int_id, option in case.expect.interpretations.items():  # type: ignore[attr-defined]
            if option is not None:
                seen.add((int_id, option))
    # Interpretations read only by a declaration (procedure.yaml's electronic notice) are applied by the apps
    # when a notice is sent or its lapse runs, and tested there (apps/portal, apps/enforcement): no rule
    # decides with them, so no scenario can record them.
    declared = (
        regime.procedure.electronic_notice.interpretations
        if regime.procedure.electronic_notice
        else frozenset()
    )
    expected = {
        (int_id, option)
        for int_id, i in regime.interpretations.items()
        if int_id not in declared
        for option in i.options
    }
    assert expected - seen == set()


def test_every_question_has_a_scenario(regime: Regime) -> None:
    asked = {case.question for case in _cases()}  # type: ignore[attr-defined]
    assert set(regime.questions()) <= asked
