"""Breaking the regime's data breaks evaluation: parameters, interpretations, citations and the catalog."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from lawcode.errors import (
    CitationMissingError,
    MissingParameterError,
    UnknownDispositivoError,
    UnknownInterpretationError,
)

from .helpers import copied_regime, load_copy, scenario_case

AS_OF = dt.date(2026, 3, 10)


def permit_facts() -> dict[str, object]:
    return dict(scenario_case("alvara_novo_veiculo_2011_deferido_valido_12_meses")["facts"])


def test_the_untouched_copy_grants_the_permit(tmp_path: Path) -> None:
    regime = load_copy(copied_regime(tmp_path))
    assert regime.evaluate("vehicle_permit", permit_facts(), as_of=AS_OF).outcome == "granted"


def test_it_fails_without_a_value_for_the_maximum_vehicle_age(tmp_path: Path) -> None:
    folder = copied_regime(tmp_path)
    path = folder / "parameters.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            "      value: 15\n      cite: art13_incII", "      value: null\n      cite: art13_incII"
        ),
        encoding="utf-8",
    )
    regime = load_copy(folder)
    with pytest.raises(MissingParameterError) as error:
        regime.evaluate("vehicle_permit", permit_facts(), as_of=AS_OF)
    assert "max_vehicle_age" in error.value.message


def test_it_fails_when_an_interpretation_is_removed(tmp_path: Path) -> None:
    folder = copied_regime(tmp_path)
    path = folder / "interpretations.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("INT-OLI-VEHICLE-AGE:", "INT-OLI-VEHICLE-AGE-REMOVED:"), encoding="utf-8")
    regime = load_copy(folder)
    with pytest.raises(UnknownInterpretationError):
        regime.evaluate("vehicle_permit", permit_facts(), as_of=AS_OF)


def test_a_parameter_value_without_citation_fails_loading(tmp_path: Path) -> None:
    folder = copied_regime(tmp_path)
    path = folder / "parameters.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("      cite: art13_incII\n", "", 1), encoding="utf-8")
    with pytest.raises(CitationMissingError):
        load_copy(folder)


def test_a_catalog_entry_citing_a_missing_inciso_fails_loading(tmp_path: Path) -> None:
    folder = copied_regime(tmp_path)
    path = folder / "catalog.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("cite: art24_incX", "cite: art24_incXI"), encoding="utf-8")
    with pytest.raises(UnknownDispositivoError):
        load_copy(folder)
