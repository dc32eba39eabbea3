"""application_fields (facts.yaml): the optional application answers a regime's law asks, per kind."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.errors import RegimeDefinitionError, UnknownDispositivoError
from lawcode.regime import Regime
from lawcode.registry import load_regime
from lawcode.tests.conftest import DEMO_FOLDER, DEMO_PACKAGE

Copy = Callable[[dict[str, str]], Regime]


def test_each_kind_lists_its_fields_with_the_article(demo_copy: Copy) -> None:
    regime = demo_copy(
        {
            "facts.yaml": "application_fields:\n  vehicle_permit:\n    - {field: enrolled_students, cite: art2}\n"
        }
    )
    declared = regime.vocabulary.facts.application_fields
    assert declared.names_for("vehicle_permit") == {"enrolled_students"}
    assert declared.names_for("renewal") == frozenset()
    assert declared.for_kind("vehicle_permit")[0].cite_text.endswith("art. 2º")


def test_a_regime_without_facts_yaml_does_not_load(tmp_path: Path) -> None:
    folder = tmp_path / "demo_sp"
    shutil.copytree(DEMO_FOLDER, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "facts.yaml").unlink()
    with pytest.raises(
        RegimeDefinitionError, match="facts.yaml is missing: declare at least application_fields"
    ):
        load_regime(folder, DEMO_PACKAGE)


def test_facts_yaml_without_the_section_does_not_load(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError, match="facts.yaml is missing 'application_fields'"):
        demo_copy({"facts.yaml": "fields: {}\n"})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("  vehicle_permit:\n    - {field: students, cite: art2}\n", "unknown field 'students'"),
        ("  taxi_permit:\n    - {field: extensions, cite: art2}\n", "unknown key 'taxi_permit'"),
        ("  renewal:\n    - {field: extensions}\n", "missing 'cite'"),
        ("  renewal: extensions\n", "must be a list"),
        (
            "  renewal:\n    - {field: extensions, cite: art2}\n    - {field: extensions, cite: art3}\n",
            "declared twice",
        ),
    ],
)
def test_a_malformed_declaration_is_loud(demo_copy: Copy, text: str, message: str) -> None:
    with pytest.raises(RegimeDefinitionError, match=message):
        demo_copy({"facts.yaml": "application_fields:\n" + text})


def test_a_cite_outside_the_law_is_loud(demo_copy: Copy) -> None:
    with pytest.raises(UnknownDispositivoError):
        demo_copy({"facts.yaml": "application_fields:\n  renewal:\n    - {field: extensions, cite: art99}\n"})
