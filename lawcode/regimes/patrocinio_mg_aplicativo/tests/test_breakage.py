"""Removing a citation, a parameter value or an interpretation breaks the regime loudly, never silently."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lawcode.errors import (
    CitationMissingError,
    MissingParameterError,
    UnknownDispositivoError,
    UnknownInterpretationError,
)
from lawcode.regime import Regime

from .conftest import AS_OF
from .test_decisions import permit_facts

Edit = Callable[[str, str, str], Regime]

MAX_AGE_VALUE = """      value: 10
      cite: art4_incII_a
      note: a forma de contagem"""


def test_a_parameter_without_its_value_fails_the_permit(edited_regime: Edit) -> None:
    regime = edited_regime(
        "parameters.yaml", MAX_AGE_VALUE, MAX_AGE_VALUE.replace("value: 10", "value: null")
    )
    with pytest.raises(MissingParameterError, match="vehicle_max_age_years"):
        regime.evaluate("vehicle_permit", permit_facts(), as_of=AS_OF)


def test_a_parameter_value_without_citation_fails_loading(edited_regime: Edit) -> None:
    with pytest.raises(CitationMissingError):
        edited_regime(
            "parameters.yaml", MAX_AGE_VALUE, MAX_AGE_VALUE.replace("      cite: art4_incII_a\n", "")
        )


def test_a_removed_interpretation_fails_the_permit(edited_regime: Edit) -> None:
    regime = edited_regime("interpretations.yaml", "INT-PAT-VEHICLE-AGE:", "INT-PAT-VEHICLE-AGE-REMOVED:")
    with pytest.raises(UnknownInterpretationError, match="INT-PAT-VEHICLE-AGE"):
        regime.evaluate("vehicle_permit", permit_facts(), as_of=AS_OF)


def test_a_catalog_citation_of_a_missing_dispositivo_fails_loading(edited_regime: Edit) -> None:
    with pytest.raises(UnknownDispositivoError, match="art13_incVII"):
        edited_regime("catalog.yaml", "cite: art13_incVI\n", "cite: art13_incVII\n")


def test_a_not_computable_entry_of_a_missing_dispositivo_fails_loading(edited_regime: Edit) -> None:
    with pytest.raises(UnknownDispositivoError, match="art28"):
        edited_regime("not_computable.yaml", "  art27:", "  art28:")
