"""The scenario files exercise every interpretation option and every question the regime answers."""

from __future__ import annotations

from lawcode.registry import get_regime

from .helpers import REGIME_ID, scenario_documents


def cases() -> list[dict[str, object]]:
    return [case for document in scenario_documents() for case in document["cases"]]


def options_in_scenarios() -> set[tuple[str, str]]:
    seen: set[tuple[str, str]] = set()
    for case in cases():
        config = case.get("config") or {}
        expect = case["expect"]
        assert isinstance(config, dict) and isinstance(expect, dict)
        seen |= set((config.get("interpretations") or {}).items())
        used = expect.get("interpretations") or {}
        if isinstance(used, dict):
            seen |= {(int_id, option) for int_id, option in used.items() if option}
    return seen


def test_every_option_of_every_interpretation_has_a_scenario() -> None:
    regime = get_regime(REGIME_ID)
    wanted = {(int_id, option) for int_id, item in regime.interpretations.items() for option in item.options}
    missing = wanted - options_in_scenarios()
    assert not missing, f"interpretation options without a scenario: {sorted(missing)}"


def test_every_question_the_regime_answers_has_a_scenario() -> None:
    asked = {case["question"] for case in cases()}
    assert set(get_regime(REGIME_ID).questions()) <= asked


def test_there_are_at_least_35_scenarios() -> None:
    assert len(cases()) >= 35
