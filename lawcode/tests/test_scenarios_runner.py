"""The runner passes what matches and fails what does not, saying why and on which line."""

from __future__ import annotations

import datetime as dt
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from lawcode.errors import ScenarioError
from lawcode.scenarios import (
    CaseResult,
    RegimeLocator,
    find_scenario_files,
    load_scenario_file,
    run_case,
    subset_mismatches,
    values_equal,
)

TOOLS = Path(__file__).parent / "fixtures" / "tools"
DEMO = TOOLS / "tools_demo"
WRONG = DEMO / "failing" / "wrong_expectations.yaml"


def results(path: Path) -> dict[str, CaseResult]:
    locator = RegimeLocator()
    return {case.name: run_case(case, locator) for case in load_scenario_file(path).cases}


def test_every_fixture_scenario_passes() -> None:
    files = find_scenario_files([TOOLS])
    outcomes = [result for path in files for result in results(path).values()]
    assert [r.case.name for r in outcomes if not r.passed] == []
    assert len(outcomes) == 9


def test_an_expected_error_passes_and_is_kept_on_the_result() -> None:
    result = results(DEMO / "scenarios" / "fines.yaml")["multa_em_ufm_sem_valor_configurado"]
    assert result.passed
    assert type(result.error).__name__ == "MissingParameterError"
    assert result.decision is None


def test_a_subset_match_on_money_and_dates_passes() -> None:
    result = results(DEMO / "scenarios" / "fines.yaml")["multa_em_ufesp_antes_da_lei_400"]
    assert result.passed
    assert result.decision is not None
    assert result.decision.result["brl"] == Decimal("290.90")


def test_each_wrong_expectation_is_reported_with_its_line() -> None:
    failures = results(WRONG)["resultado_errado"].failures
    assert "linha 11: esperado outcome 'granted', veio 'denied'" in failures
    assert any(f.startswith("linha 12: esperada a citação 'art3'") for f in failures)
    assert "linha 13: achado 'vehicle_age': esperado 'met', veio 'not_met'" in failures
    assert any(f.startswith("linha 13: achado 'tachograph' ausente") for f in failures)
    assert "linha 14: result.valid_until: esperado '2027-03-01', veio '2027-02-28'" in failures
    assert "linha 15: INT-FER-AGE-COUNT: esperada a opção 'inclusive', veio 'calendar_year'" in failures
    assert "linha 16: parâmetro 'max_vehicle_age': esperado 10, veio 15" in failures
    assert any(f.startswith("linha 16: parâmetro 'ufm' não foi usado") for f in failures)
    assert "linha 17: a explicação não contém 'texto que não aparece'" in failures
    assert len(failures) == 9


def test_an_expected_error_that_does_not_happen_fails() -> None:
    (failure,) = results(WRONG)["erro_esperado_mas_veio_decisao"].failures
    assert failure == "linha 24: esperado erro MissingParameterError, veio a decisão 'in_force'"


def test_a_different_error_than_expected_fails() -> None:
    (failure,) = results(WRONG)["erro_diferente_do_esperado"].failures
    assert failure.startswith("linha 33: esperado erro MissingParameterError, veio MissingFactError")
    assert "vehicle.manufacture_year" in failure


def test_an_expected_citation_that_does_not_exist_fails() -> None:
    (failure,) = results(WRONG)["citacao_inexistente"].failures
    assert "'art99' não existe" in failure


def test_one_failing_case_does_not_hide_the_others() -> None:
    assert results(WRONG)["passa_no_meio_dos_que_falham"].passed


def copy_demo(tmp_path: Path, regime_id: str) -> Path:
    """A copy of the fixture regime under another id (an out-of-tree package must have its own name)."""
    folder = tmp_path / regime_id
    shutil.copytree(DEMO, folder, ignore=shutil.ignore_patterns("__pycache__", "failing"))
    meta = folder / "regime.yaml"
    meta.write_text(
        meta.read_text(encoding="utf-8").replace("id: tools_demo", f"id: {regime_id}"), encoding="utf-8"
    )
    for scenario in (folder / "scenarios").glob("*.yaml"):
        text = scenario.read_text(encoding="utf-8").replace("regime: tools_demo", f"regime: {regime_id}")
        scenario.write_text(text, encoding="utf-8")
    return folder


def test_a_bug_in_a_rule_fails_its_case_with_the_place(tmp_path: Path) -> None:
    folder = copy_demo(tmp_path, "tools_runner_bug")
    rules = folder / "rules.py"
    broken = rules.read_text(encoding="utf-8").replace(
        "    in_force = ctx.as_of >= ctx.regime.in_force\n", "    in_force = {}['bug']\n"
    )
    rules.write_text(broken, encoding="utf-8")
    outcome = results(folder / "scenarios" / "fines.yaml")
    (failure,) = outcome["lei_nao_vigente_na_vespera"].failures
    assert failure.startswith("linha ")
    assert "erro inesperado (bug) KeyError" in failure and "rules.py:" in failure
    assert outcome["multa_em_ufesp_antes_da_lei_400"].passed


def test_a_regime_folder_outside_the_tree_is_found_from_its_scenarios(tmp_path: Path) -> None:
    folder = copy_demo(tmp_path, "tools_runner_copy")
    outcome = results(folder / "scenarios" / "vehicle_permit.yaml")
    assert all(result.passed for result in outcome.values())
    decision = outcome["veiculo_16_anos_indeferido"].decision
    assert decision is not None and decision.regime == "tools_runner_copy"


def test_an_unknown_regime_fails_the_case_not_the_run(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(
        "regime: nao_existe\ncases:\n  - name: a\n    as_of: 2026-03-01\n    question: law_in_force\n"
        "    facts: {}\n    expect: {outcome: in_force}\n",
        encoding="utf-8",
    )
    (case,) = load_scenario_file(path).cases
    (failure,) = run_case(case).failures
    assert "RegimeDefinitionError" in failure and "nao_existe" in failure


def test_folders_yield_only_yaml_inside_scenarios_folders() -> None:
    files = find_scenario_files([TOOLS])
    assert {f.name for f in files} == {"fines.yaml", "vehicle_permit.yaml"}
    assert all("scenarios" in f.parts for f in files)


def test_an_explicit_file_is_always_run_and_a_missing_path_is_an_error(tmp_path: Path) -> None:
    assert find_scenario_files([WRONG]) == [WRONG]
    with pytest.raises(ScenarioError):
        find_scenario_files([tmp_path / "typo"])


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        (dt.date(2027, 2, 28), "2027-02-28"),
        (dt.date(2027, 2, 28), dt.date(2027, 2, 28)),
        (290.9, Decimal("290.90")),
        (10, Decimal("10")),
        ("10.50", Decimal("10.5")),
        ("denied", "denied"),
        (True, True),
    ],
)
def test_values_equal_across_yaml_and_engine_types(expected: object, actual: object) -> None:
    assert values_equal(expected, actual)


@pytest.mark.parametrize(
    ("expected", "actual"),
    [(True, 1), (1, True), ("10", "10.0x"), (dt.date(2027, 2, 28), "2027-03-01"), (None, 0)],
)
def test_values_that_differ(expected: object, actual: object) -> None:
    assert not values_equal(expected, actual)


def test_subset_match_ignores_extra_keys_and_checks_lists_item_by_item() -> None:
    actual = {"penalties": [{"kind": "fine", "brl": Decimal("1.00"), "doubled": False}], "extra": 1}
    assert subset_mismatches({"penalties": [{"kind": "fine", "brl": 1}]}, actual, "result") == []
    assert subset_mismatches({"penalties": [{"kind": "warning"}]}, actual, "result") == [
        "result.penalties[0].kind: esperado 'warning', veio 'fine'"
    ]
    assert subset_mismatches({"penalties": []}, actual, "result")[0].startswith(
        "result.penalties: esperados 0"
    )
    assert subset_mismatches({"missing": 1}, actual, "result")[0].startswith("result.missing: ausente")


DECISIVE = """\
regime: olimpia_sp_escolar
cases:
  - name: sem_auxiliar
    as_of: 2026-03-20
    question: sanction
    facts:
      code: OLI-24-IX
      date: 2026-03-10
      already_punished_as_traffic_only: false
      operator: {kind: PF, active_permits: 1, auxiliary_drivers: 0, bans: [], person: {name: Ana}, history: []}
    expect:
      outcome: penalty
      cites: [art30]
      decisive_cites: [art24_incIX, art13_incVI, art30]
"""


def test_decisive_cites_are_checked_on_the_findings_the_outcome_rests_on(tmp_path: Path) -> None:
    """art30 is cited by the met «auto_contents» finding: enough for ``cites`` (the whole decision), not for
    ``decisive_cites``, whose findings here are the infraction and its penalties."""
    path = tmp_path / "scenarios" / "decisive.yaml"
    path.parent.mkdir()
    path.write_text(DECISIVE, encoding="utf-8")
    (result,) = results(path).values()
    (failure,) = result.failures
    assert failure.startswith("linha 14: esperada a citação 'art30' numa constatação decisiva; decisivas: ")
    assert "infraction: art24_incIX, art13_incVI, art21" in failure and "auto_contents" not in failure


def test_decisive_findings_of_a_denial_are_the_unmet_ones() -> None:
    from lawcode.decision import Status
    from lawcode.scenarios import decisive_findings

    case = load_scenario_file(
        Path(__file__).parents[1] / "regimes" / "olimpia_sp_escolar" / "scenarios" / "vehicle_permit.yaml"
    ).cases
    denied = next(r.decision for r in map(run_case, case) if r.decision and r.decision.outcome == "denied")
    assert denied is not None and decisive_findings(denied)
    assert {f.status for f in decisive_findings(denied)} == {Status.NOT_MET}
