"""The scenario loader keeps line numbers and rejects malformed files with the file, the line and a fix."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from textwrap import dedent

import pytest

from lawcode.errors import ScenarioError
from lawcode.scenarios import load_scenario_file, load_yaml_with_lines
from lawcode.yamlsource import YamlMap

VALID = """\
regime: olimpia_sp_escolar
cases:
  - name: first
    as_of: 2026-03-01
    question: vehicle_permit
    facts:
      vehicle: {manufacture_year: 2015}
    expect:
      outcome: denied
      cites: [art13_incII]
      findings: {vehicle_age: not_met}
      result: {valid_until: 2027-02-28}
  - name: second
    description: espera erro
    as_of: "2026-03-02"
    question: vehicle_permit
    facts: {}
    expect:
      error: MissingFactError
      explanation_contains: vehicle
"""


def write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(dedent(text), encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> ScenarioError:
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(path)
    return info.value


def test_it_loads_cases_with_their_lines(tmp_path: Path) -> None:
    scenario = load_scenario_file(write(tmp_path, VALID))
    first, second = scenario.cases
    assert scenario.regime == "olimpia_sp_escolar"
    assert (first.name, first.line, first.line_of("expect")) == ("first", 3, 8)
    assert first.as_of == dt.date(2026, 3, 1)
    assert first.expect.outcome == "denied"
    assert first.expect.cites == ("art13_incII",)
    assert first.expect.findings == {"vehicle_age": "not_met"}
    assert first.expect.result == {"valid_until": dt.date(2027, 2, 28)}
    assert second.as_of == dt.date(2026, 3, 2)
    assert second.expect.error == "MissingFactError"
    assert second.expect.explanation_contains == ("vehicle",)
    assert second.description == "espera erro"


def test_it_records_the_line_of_every_nested_key() -> None:
    data = load_yaml_with_lines("a:\n  b:\n    c: 1\n  d: [1, 2]\n", "inline.yaml")
    assert isinstance(data, YamlMap)
    assert data["a"].line_of("c") == 2 or data["a"].line_of("b") == 2
    assert data["a"]["b"].line_of("c") == 3
    assert data["a"].line_of("d") == 4


def test_malformed_yaml_names_the_file_and_line(tmp_path: Path) -> None:
    error = load_error(tmp_path, "regime: x\ncases:\n  - name: a\n    facts: {broken\n")
    assert error.file is not None and error.file.endswith("case.yaml")
    assert error.line == 5 or error.line == 4
    assert "YAML" in error.message


def test_unknown_case_key_is_rejected_with_its_line(tmp_path: Path) -> None:
    error = load_error(tmp_path, VALID.replace("    description: espera erro", "    descripton: typo"))
    assert error.line == 14
    assert "descripton" in error.message


def test_unknown_expect_key_is_rejected(tmp_path: Path) -> None:
    error = load_error(tmp_path, VALID.replace("      cites: [art13_incII]", "      citations: [x]"))
    assert error.line == 10
    assert "citations" in error.message


@pytest.mark.parametrize("key", ["name", "as_of", "question", "facts", "expect"])
def test_a_missing_required_key_is_named(tmp_path: Path, key: str) -> None:
    text = "regime: r\ncases:\n  - name: a\n    as_of: 2026-01-01\n    question: q\n    facts: {}\n"
    text += "    expect: {outcome: granted}\n"
    lines = [line for line in text.splitlines() if not line.strip().startswith(f"{key}:")]
    lines = [
        line.replace("  - name: a", "  - description: sem nome") if key == "name" else line for line in lines
    ]
    error = load_error(tmp_path, "\n".join(lines) + "\n")
    assert f"'{key}'" in error.message
    assert error.line == 3


def test_an_impossible_date_is_reported_at_its_line(tmp_path: Path) -> None:
    error = load_error(tmp_path, VALID.replace("as_of: 2026-03-01", "as_of: 2026-02-30"))
    assert error.line == 4
    assert "2026-02-30" in error.message


def test_a_date_that_is_not_iso_is_rejected(tmp_path: Path) -> None:
    error = load_error(tmp_path, VALID.replace('as_of: "2026-03-02"', "as_of: 02/03/2026"))
    assert error.line == 15
    assert "YYYY-MM-DD" in error.message


def test_duplicate_case_names_are_rejected(tmp_path: Path) -> None:
    error = load_error(tmp_path, VALID.replace("name: second", "name: first"))
    assert error.line == 13
    assert "line 3" in error.message


def test_duplicate_keys_are_rejected(tmp_path: Path) -> None:
    error = load_error(
        tmp_path,
        VALID.replace(
            "    question: vehicle_permit\n    facts: {}", "    question: a\n    question: b\n    facts: {}"
        ),
    )
    assert error.line == 17
    assert "question" in error.message


def test_expect_needs_exactly_one_of_outcome_or_error(tmp_path: Path) -> None:
    error = load_error(
        tmp_path, VALID.replace("      outcome: denied\n", "      outcome: denied\n      error: X\n")
    )
    assert "exactly one" in error.message
    assert error.line == 9


def test_a_file_without_cases_is_rejected(tmp_path: Path) -> None:
    error = load_error(tmp_path, "regime: olimpia_sp_escolar\ncases: []\n")
    assert error.line == 2


def test_a_missing_file_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario_file(tmp_path / "nope.yaml")
    assert "nope.yaml" in str(info.value.file)


def test_interpretations_may_be_a_list_or_a_mapping(tmp_path: Path) -> None:
    as_list = VALID.replace("      findings: {vehicle_age: not_met}", "      interpretations: [INT-A]")
    as_map = VALID.replace("      findings: {vehicle_age: not_met}", "      interpretations: {INT-A: opt}")
    assert load_scenario_file(write(tmp_path, as_list, "a.yaml")).cases[0].expect.interpretations == {
        "INT-A": None
    }
    assert load_scenario_file(write(tmp_path, as_map, "b.yaml")).cases[0].expect.interpretations == {
        "INT-A": "opt"
    }


def test_decision_checks_are_rejected_next_to_an_expected_error(tmp_path: Path) -> None:
    error = load_error(tmp_path, VALID.replace("      explanation_contains: vehicle", "      cites: [art1]"))
    assert error.line == 20
    assert "'expect.cites'" in error.message


def test_merge_keys_may_be_overridden_without_a_duplicate_error() -> None:
    text = "base: &b {kind: new, year: 2011}\nother:\n  <<: *b\n  kind: renewal\n"
    data = load_yaml_with_lines(text, "merge.yaml")
    assert data["other"] == {"kind": "renewal", "year": 2011}
    assert data["other"].line_of("kind") == 4


def test_an_unknown_finding_status_is_rejected_at_its_line(tmp_path: Path) -> None:
    error = load_error(tmp_path, VALID.replace("{vehicle_age: not_met}", "{vehicle_age: notmet}"))
    assert error.line == 11
    assert "notmet" in error.message and "not_met" in error.message
