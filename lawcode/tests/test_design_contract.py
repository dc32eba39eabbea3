"""docs/lawcode/design.md is the contract: its lists of questions, units, errors and kinds match the code."""

from __future__ import annotations

import re
from pathlib import Path

from lawcode import documents, errors, factfields, fields
from lawcode.questions import QUESTIONS
from lawcode.units import Unit

DESIGN = (Path(__file__).resolve().parents[2] / "docs" / "lawcode" / "design.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = DESIGN.index(f"## {title}")
    end = DESIGN.find("\n## ", start + 1)
    return DESIGN[start : end if end != -1 else None]


def test_every_question_is_documented() -> None:
    text = section("Rules and questions")
    for name in QUESTIONS:
        assert f"`{name}`" in text, name


def test_units_are_the_documented_closed_set() -> None:
    documented = re.search(r"`(years, [^`]+)`", section("Units (closed set)"))
    assert documented is not None
    assert documented.group(1).split(", ") == [unit.value for unit in Unit]


def test_documented_errors_exist_and_every_error_is_documented() -> None:
    text = section("Errors (`errors.py`)")
    documented = set(re.findall(r"`(\w+Error)`", text))
    assert documented == set(errors.__all__)


def test_declaration_formats_are_documented() -> None:
    text = section("Facts (`facts.py`)")
    kinds = text[text.index("### Document kinds") :]
    words = set(re.findall(r"[a-z_]+", kinds))
    assert set(documents.PRESENTERS) | set(documents.VALIDITY_RULES) <= words
    assert {"label", "presented_by", "cite", "validity", "negative_certificate", "details"} <= words
    assert set(factfields.ENTITIES) <= words
    assert set(fields.FIELD_TYPES) <= words
