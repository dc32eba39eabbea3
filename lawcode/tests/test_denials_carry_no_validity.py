"""A denied permit never carries a validity: no screen may show "Indeferido — válido até …" (issue: legal state).

Iterates every regime's scenario cases of the permit questions, so a new regime is held to it too.
"""

from __future__ import annotations

from lawcode.decision import Finding, Status, eligibility
from lawcode.registry import all_regimes
from lawcode.scenarios import evaluate_case, find_scenario_files, load_scenario_file

PERMIT_QUESTIONS = {"vehicle_permit", "driver_permit"}


def test_if_granted_values_reach_only_a_grant() -> None:
    unmet = Finding("x", Status.NOT_MET, "não atendido", ())
    met = Finding("x", Status.MET, "atendido", ())
    assert eligibility([unmet], {"age": 3}, if_granted={"valid_until": "d"}).result == {"age": 3}
    assert eligibility([met], {"age": 3}, if_granted={"valid_until": "d"}).result == {
        "age": 3,
        "valid_until": "d",
    }


def test_no_denied_permit_in_any_scenario_has_a_valid_until() -> None:
    checked = 0
    for regime in all_regimes():
        for path in find_scenario_files([regime.folder / "scenarios"]):
            for case in load_scenario_file(path).cases:
                if case.question not in PERMIT_QUESTIONS or case.expect.outcome != "denied":
                    continue
                decision = evaluate_case(case, regime)
                assert "valid_until" not in decision.result, case.where
                checked += 1
    assert checked > 10
