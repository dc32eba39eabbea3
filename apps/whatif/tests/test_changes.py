"""The change a form states becomes the engine's Reform, told in Portuguese; choices come from the regime."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import lawcode
from apps.whatif.changes import ProposedChange, change_label, reform_for
from apps.whatif.forms import change_choices

REGIME = "olimpia_sp_escolar"
DAY = dt.date(2026, 3, 10)


def test_a_parameter_change_is_a_dated_cited_value() -> None:
    change = ProposedChange("parameter", "max_vehicle_age", Decimal("10"), dt.date(2026, 3, 1))
    reform = reform_for(REGIME, change, DAY)
    config = reform.config(DAY)
    (value,) = config.parameters["max_vehicle_age"]
    assert (value.value, value.effective_from, value.cite) == (10, dt.date(2026, 3, 1), "art13_incII")
    assert change_label(REGIME, change, DAY) == (
        "Idade máxima do veículo, em anos de fabricação: 15 anos → 10 anos, a partir de 01/03/2026"
    )
    assert ProposedChange.from_dict(change.to_dict()) == change  # stored as JSON on the run


def test_an_interpretation_switch_is_the_option_the_regime_declares() -> None:
    interpretation = lawcode.get_regime(REGIME).interpretations["INT-OLI-VEHICLE-AGE"]
    change = ProposedChange("interpretation", "INT-OLI-VEHICLE-AGE", option="completed_years_from_dec31")
    reform = reform_for(REGIME, change, DAY)
    assert reform.interpretations == {"INT-OLI-VEHICLE-AGE": "completed_years_from_dec31"}
    assert change_label(REGIME, change, DAY) == (
        f"{interpretation.question}: {interpretation.options['completed_years_from_dec31']}"
    )


def test_the_form_offers_what_the_regime_declares() -> None:
    ((_, options),) = change_choices([REGIME])
    values = [value for value, _ in options]
    assert "parameter|olimpia_sp_escolar|max_vehicle_age|" in values
    regime = lawcode.get_regime(REGIME)
    declared = sum(len(i.options) for i in regime.interpretations.values())
    assert sum(value.startswith("interpretation|") for value in values) == declared
