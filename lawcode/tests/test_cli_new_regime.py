"""docs/lawcode/new-regime.md is executable: its files make a working regime outside the repository.

The files are extracted from the page (each ``**`exemplo_sp_escolar/<path>`**`` heading followed by a code
block), written into a temporary folder and exercised with the commands the page shows. Nothing in the
repository is edited — which is the point the page makes.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "lawcode" / "new-regime.md"
FILE_BLOCK = re.compile(r"\*\*`(exemplo_sp_escolar/[^`]+)`\*\*\n+```[a-z]*\n(.*?)```", re.DOTALL)


def page_files() -> dict[str, str]:
    return dict(FILE_BLOCK.findall(PAGE.read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def regime_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("elsewhere")
    for relative, text in page_files().items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "exemplo_sp_escolar"


def lawcode(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lawcode", *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_page_holds_every_file_of_the_folder() -> None:
    assert set(page_files()) == {
        f"exemplo_sp_escolar/{name}"
        for name in (
            "law.txt",
            "regime.yaml",
            "parameters.yaml",
            "units.yaml",
            "interpretations.yaml",
            "catalog.yaml",
            "calendar.yaml",
            "not_computable.yaml",
            "procedure.yaml",
            "facts.yaml",
            "labels.yaml",
            "__init__.py",
            "rules/__init__.py",
            "rules/procedures.py",
            "rules/vehicle.py",
            "scenarios/vehicle_permit.yaml",
        )
    }


def test_its_scenarios_pass_from_the_folder_alone(regime_folder: Path) -> None:
    run = lawcode("test", regime_folder)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "7 passed, 0 failed"


def test_explain_shows_the_counterfactual(regime_folder: Path) -> None:
    scenario = regime_folder / "scenarios" / "vehicle_permit.yaml"
    run = lawcode(
        "explain", scenario, "--case", "veiculo_com_12_anos_indeferido_se_o_ano_de_fabricacao_conta"
    )
    assert run.returncode == 0, run.stdout
    assert "Resultado: Indeferido" in run.stdout
    assert "seria deferido se o veículo fosse fabricado a partir de 2015" in run.stdout


def test_its_coverage_is_complete_and_can_be_written_and_checked(regime_folder: Path, tmp_path: Path) -> None:
    assert lawcode("coverage", "--regime-dir", regime_folder, "--docs", tmp_path, "--write").returncode == 0
    run = lawcode("coverage", "--regime-dir", regime_folder, "--docs", tmp_path, "--check")
    assert run.returncode == 0, run.stdout
    assert run.stdout.startswith("OK exemplo_sp_escolar — 7 dispositivos cobertos")


def test_its_interpretations_are_listed(regime_folder: Path) -> None:
    run = lawcode("interpretations", "--regime-dir", regime_folder)
    assert "INT-EXE-VEHICLE-AGE" in run.stdout
    assert "calendar_year_difference (padrão)" in run.stdout


def test_coverage_of_a_folder_outside_the_repository_goes_next_to_it(regime_folder: Path) -> None:
    """Section 6: --regime-dir without --docs writes and checks <folder>.md beside the folder, not docs/lawcode."""
    page = regime_folder.parent / "exemplo_sp_escolar.md"
    assert lawcode("coverage", "--regime-dir", regime_folder, "--write").returncode == 0
    assert page.is_file() and not (ROOT / "docs" / "lawcode" / "exemplo_sp_escolar.md").exists()
    run = lawcode("coverage", "--regime-dir", regime_folder, "--check")
    assert run.returncode == 0, run.stdout
    assert run.stdout.startswith("OK exemplo_sp_escolar — 7 dispositivos cobertos")


def test_new_regime_finds_the_walk_through_laws_numbers(regime_folder: Path, tmp_path: Path) -> None:
    """Section 0: the skeleton from the page's law.txt lists its three numbers as candidates, cited."""
    run = lawcode(
        "new-regime", "--law", regime_folder / "law.txt", "--id", "exemplo_sp_escolar", "--out", tmp_path
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "law.txt: Lei nº 1.234, de 5 de fevereiro de 2024 — 7 dispositivos" in run.stdout
    candidates = (tmp_path / "exemplo_sp_escolar" / "candidate_parameters.yaml").read_text(encoding="utf-8")
    for cite, value, unit in (
        ("art2", 12, "years"),
        ("art3", 20, "ufesp"),
        ("art3_parun", 10, "calendar_days"),
    ):
        assert f"  - cite: {cite}\n    value: {value}\n    unit: {unit}\n" in candidates
    meta = (tmp_path / "exemplo_sp_escolar" / "regime.yaml").read_text(encoding="utf-8")
    assert "in_force: 2024-02-05" in meta and "municipality: Exemplo" in meta


def test_a_missing_page_outside_the_repository_says_the_command_for_that_folder(tmp_path: Path) -> None:
    folder = tmp_path / "exemplo_sp_escolar"
    for relative, text in page_files().items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    run = lawcode("coverage", "--regime-dir", folder, "--check")
    assert run.returncode == 1
    assert f"gere-o com python -m lawcode coverage --regime-dir {folder} --write" in run.stdout
