"""``python -m lawcode`` as a user runs it: output lines and exit status (subprocess, from the repo root)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = Path(__file__).parent / "fixtures" / "tools" / "tools_demo"
PASSING = DEMO / "scenarios"
FAILING = DEMO / "failing"


def lawcode(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lawcode", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_passing_scenarios_print_one_line_each_and_exit_0() -> None:
    run = lawcode("test", PASSING)
    lines = run.stdout.splitlines()
    assert run.returncode == 0, run.stdout + run.stderr
    assert lines[-1] == "9 passed, 0 failed"
    assert sum(line.startswith("PASS tools_demo ") for line in lines) == 9
    vehicle = "PASS tools_demo lawcode/tests/fixtures/tools/tools_demo/scenarios/vehicle_permit.yaml::"
    assert vehicle + "veiculo_16_anos_indeferido" in lines


def test_a_failing_case_exits_1_and_says_why() -> None:
    run = lawcode("test", PASSING, FAILING / "wrong_expectations.yaml")
    lines = run.stdout.splitlines()
    assert run.returncode == 1
    assert lines[-1] == "10 passed, 4 failed"
    (wrong,) = [line for line in lines if "::erro_esperado_mas_veio_decisao" in line]
    assert wrong.startswith("FAIL tools_demo ")
    assert wrong.endswith(" — linha 24: esperado erro MissingParameterError, veio a decisão 'in_force'")


def test_bad_yaml_counts_as_a_failure_and_names_the_line() -> None:
    run = lawcode("test", FAILING / "bad_yaml.yaml")
    assert run.returncode == 1
    assert "bad_yaml.yaml:6: YAML malformado" in run.stdout
    assert run.stdout.splitlines()[-1] == "0 passed, 1 failed"


def test_no_case_found_is_a_failure(tmp_path: Path) -> None:
    run = lawcode("test", tmp_path)
    assert run.returncode == 1
    assert "0 passed, 0 failed" in run.stdout.splitlines()
    assert "nenhum cenário encontrado" in run.stdout


def test_a_missing_path_is_a_failure(tmp_path: Path) -> None:
    run = lawcode("test", tmp_path / "nao_existe")
    assert run.returncode == 1
    assert "arquivo ou pasta inexistente" in run.stdout


def test_explain_prints_the_full_decision_in_portuguese() -> None:
    run = lawcode("explain", PASSING / "vehicle_permit.yaml", "--case", "veiculo_16_anos_indeferido")
    assert run.returncode == 0, run.stdout
    assert "Resultado: Indeferido" in run.stdout
    assert "Lei 300/2020 (Ferramenta), art. 2º, I" in run.stdout
    assert "Contrafactual: seria deferido se o veículo fosse fabricado a partir de 2011" in run.stdout
    assert "Idade máxima do veículo: 15 anos (vigente desde 02/03/2020" in run.stdout
    assert "INT-FER-AGE-COUNT" in run.stdout
    assert "reforma_idade_20_anos_defere" not in run.stdout


def test_explain_of_every_case_shows_expected_errors_too() -> None:
    run = lawcode("explain", PASSING / "vehicle_permit.yaml")
    assert run.returncode == 0
    assert run.stdout.count("=== tools_demo ") == 6
    assert "Erro — LawNotInForceError" in run.stdout


def test_explain_of_an_unknown_case_lists_the_cases() -> None:
    run = lawcode("explain", PASSING / "fines.yaml", "--case", "nao_existe")
    assert run.returncode == 1
    assert "multa_em_ufesp_antes_da_lei_400" in run.stdout


def test_coverage_write_then_check_passes(tmp_path: Path) -> None:
    written = lawcode("coverage", "--regime-dir", DEMO, "--docs", tmp_path, "--write")
    assert written.returncode == 0, written.stdout
    assert (tmp_path / "tools_demo.md").is_file()
    checked = lawcode("coverage", "--regime-dir", DEMO, "--docs", tmp_path, "--check")
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.startswith("OK tools_demo — 8 dispositivos cobertos")


def test_coverage_check_fails_on_a_stale_file(tmp_path: Path) -> None:
    (tmp_path / "tools_demo.md").write_text("# velho\n", encoding="utf-8")
    run = lawcode("coverage", "--regime-dir", DEMO, "--docs", tmp_path, "--check")
    assert run.returncode == 1
    assert "desatualizado" in run.stdout


def test_coverage_without_flags_prints_the_matrix() -> None:
    run = lawcode("coverage", "--regime-dir", DEMO)
    assert run.returncode == 0
    assert (
        "| art. 4º | `art4` | original | não computável — competência do órgão fiscalizador |" in run.stdout
    )


def test_interpretations_lists_question_options_default_and_basis() -> None:
    run = lawcode("interpretations", "--regime-dir", DEMO)
    assert run.returncode == 0
    assert "INT-FER-AGE-COUNT: Como se conta a idade do veículo?" in run.stdout
    assert "  - calendar_year (padrão): Ano da data menos o ano de fabricação." in run.stdout
    assert "  fundamento: art2_incI" in run.stdout


def test_an_unknown_regime_is_a_clear_error() -> None:
    run = lawcode("coverage", "--regime", "nao_existe")
    assert run.returncode == 1
    assert "regime desconhecido 'nao_existe'" in run.stdout
