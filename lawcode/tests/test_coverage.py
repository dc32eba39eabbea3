"""Coverage matrix of the fixture regime: rows in text order, implementing items, gaps and staleness."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lawcode.coverage import build_matrix, check_regime, render_markdown, write_matrix
from lawcode.regime import Regime
from lawcode.scenarios import regime_from_folder

DEMO = Path(__file__).parent / "fixtures" / "tools" / "tools_demo"


@pytest.fixture(scope="module")
def demo() -> Regime:
    return regime_from_folder(DEMO)


def copy_with(tmp_path: Path, regime_id: str, replacements: dict[str, str]) -> Regime:
    folder = tmp_path / regime_id
    shutil.copytree(DEMO, folder, ignore=shutil.ignore_patterns("__pycache__", "failing", "scenarios"))
    meta = folder / "regime.yaml"
    meta.write_text(
        meta.read_text(encoding="utf-8").replace("id: tools_demo", f"id: {regime_id}"), encoding="utf-8"
    )
    for name, text in replacements.items():
        (folder / name).write_text(text, encoding="utf-8")
    return regime_from_folder(folder)


def test_rows_follow_the_text_order_including_parents(demo: Regime) -> None:
    ids = [row.dispositivo for row in build_matrix(demo).rows]
    assert ids == ["art1", "art2", "art2_incI", "art2_incII", "art2_parun", "art3", "art4", "art5"]


def test_each_row_lists_what_implements_it(demo: Regime) -> None:
    rows = {row.dispositivo: row for row in build_matrix(demo).rows}
    rendered = [item.render() for item in rows["art2_incI"].implementations]
    assert rendered == [
        "regra `vehicle_permit` (rules.vehicle_permit)",
        "parâmetro `max_vehicle_age`",
        "interpretação `INT-FER-AGE-COUNT`",
    ]
    art3 = [item.render() for item in rows["art3"].implementations]
    assert art3 == [
        "procedimento `fine_amount` (rules.fine_amount)",
        "parâmetro `fine_ufesp`",
        "parâmetro `fine_ufm`",
        "infração `FER-3`",
        "declaração `units.yaml`",
    ]
    assert rows["art1"].not_computable == "objeto da lei"
    assert build_matrix(demo).gaps == []


def test_amended_articles_show_each_wording_with_its_dates(demo: Regime) -> None:
    rows = {row.dispositivo: row for row in build_matrix(demo).rows}
    assert (
        rows["art3"].wording
        == "original (02/03/2020 a 30/06/2022); redação da Lei 400/2022 (desde 01/07/2022)"
    )
    assert rows["art2"].wording == "original"


def test_a_dispositivo_without_implementation_or_reason_is_a_gap(tmp_path: Path) -> None:
    regime = copy_with(
        tmp_path,
        "tools_cov_gap",
        {"not_computable.yaml": "not_computable:\n  - cite: art1\n    reason: objeto\n"},
    )
    matrix = build_matrix(regime)
    assert [row.dispositivo for row in matrix.gaps] == ["art4"]
    write_matrix(regime, tmp_path)
    (problem,) = check_regime(regime, tmp_path)
    assert problem.startswith("lacuna: art4 (art. 4º)")
    assert "**LACUNA**" in render_markdown(matrix)


def test_removing_a_parameter_citation_opens_a_gap(tmp_path: Path) -> None:
    parameters = (
        (DEMO / "parameters.yaml").read_text(encoding="utf-8").replace("cite: art2_parun", "cite: art2")
    )
    regime = copy_with(tmp_path, "tools_cov_param", {"parameters.yaml": parameters})
    rows = {row.dispositivo: row for row in build_matrix(regime).rows}
    assert [item.render() for item in rows["art2_parun"].implementations] == [
        "regra `vehicle_permit` (rules.vehicle_permit)"
    ]


def test_the_check_reports_a_missing_or_stale_page(demo: Regime, tmp_path: Path) -> None:
    (missing,) = check_regime(demo, tmp_path)
    assert "não existe" in missing and "--write" in missing
    path = write_matrix(demo, tmp_path)
    assert check_regime(demo, tmp_path) == []
    path.write_text(
        path.read_text(encoding="utf-8").replace("competência do órgão", "competência"), encoding="utf-8"
    )
    (stale,) = check_regime(demo, tmp_path)
    assert "desatualizado" in stale


def test_the_page_is_portuguese_markdown(demo: Regime) -> None:
    page = render_markdown(build_matrix(demo))
    assert page.startswith("# Matriz de cobertura — Regime de teste das ferramentas\n")
    assert "8 dispositivos: 7 implementados, 1 não computáveis, 0 lacunas." in page
    assert "| Dispositivo | Id | Redação | Implementado por |" in page
    assert render_markdown(build_matrix(demo)) == page


def test_citations_declared_in_yaml_count_as_implementations(demo: Regime) -> None:
    rows = {row.dispositivo: row for row in build_matrix(demo).rows}
    assert "declaração `documents.yaml`" in [item.render() for item in rows["art2_incII"].implementations]
    assert "declaração `procedure.yaml`" in [item.render() for item in rows["art1"].implementations]


def test_a_citation_only_procedure_yaml_declares_is_no_gap(tmp_path: Path) -> None:
    regime = copy_with(tmp_path, "tools_cov_declared", {"not_computable.yaml": "not_computable: []\n"})
    assert [row.dispositivo for row in build_matrix(regime).gaps] == ["art4"]  # art1: procedure.yaml cites it
