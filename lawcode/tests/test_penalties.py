"""penalties.yaml: every regime that answers ``sanction`` declares its penalty kinds, validated at load."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from lawcode.errors import RegimeDefinitionError, UnknownDispositivoError
from lawcode.penalties import MECHANISMS, PenaltyCatalog, load_penalties
from lawcode.registry import all_regimes, get_regime

REGIME = "olimpia_sp_escolar"


def _load(tmp_path: Path, text: str) -> PenaltyCatalog:
    regime = get_regime(REGIME)
    path = tmp_path / "penalties.yaml"
    path.write_text(text, encoding="utf-8")
    return load_penalties(path, regime.citer, regime.parameters, REGIME)


def test_every_regime_answering_sanction_declares_its_penalties() -> None:
    for regime in all_regimes():
        if "sanction" in regime.rules:
            assert regime.penalties is not None, regime.id
            for kind in regime.penalties.kinds.values():
                assert kind.mechanism in MECHANISMS and kind.label and kind.cites


def test_a_missing_declaration_is_a_loud_error(tmp_path: Path) -> None:
    regime = get_regime(REGIME)
    with pytest.raises(RegimeDefinitionError, match="has no penalties.yaml"):
        load_penalties(tmp_path / "penalties.yaml", regime.citer, regime.parameters, REGIME)


ENTRY = """penalties:
  - key: suspension
    label: Suspensão
    mechanism: {mechanism}
    target: {target}
    cite: {cite}
"""


def test_an_unknown_mechanism_names_the_file_line_and_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(RegimeDefinitionError, match="unknown mechanism 'jail'.*suspension") as error:
        _load(tmp_path, ENTRY.format(mechanism="jail", target="permit", cite="art21_incIII"))
    assert error.value.line == 4


def test_a_target_the_mechanism_cannot_act_on_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RegimeDefinitionError, match="suspension acts on permit, operator, not 'vehicle'"):
        _load(tmp_path, ENTRY.format(mechanism="suspension", target="vehicle", cite="art21_incIII"))


def test_citations_are_checked(tmp_path: Path) -> None:
    with pytest.raises(UnknownDispositivoError):
        _load(tmp_path, ENTRY.format(mechanism="suspension", target="permit", cite="art99_incIX"))


def test_an_option_of_another_mechanism_is_refused(tmp_path: Path) -> None:
    text = ENTRY.format(mechanism="cassation", target="permit", cite="art21_incIV") + "    days: decision\n"
    with pytest.raises(RegimeDefinitionError, match="unknown key 'days'"):
        _load(tmp_path, text)


RANGE = (
    ENTRY.format(mechanism="suspension", target="permit", cite="art21_incIII")
    + """    days: judgment
    range: {min: grave_immediate_suspension_days, max: gravissima_extended_suspension_days, cite: art21_incIII}
"""
)


def test_days_chosen_at_judgment_take_their_range_from_cited_parameters(tmp_path: Path) -> None:
    catalog = _load(tmp_path, RANGE)
    kind = catalog.get("suspension")
    assert kind.chosen_at_judgment and kind.range is not None
    assert catalog.judgment_range("suspension", dt.date(2026, 3, 1)) == (Decimal(30), Decimal(60))


def test_a_range_needs_judgment_and_parameters_that_exist_in_days(tmp_path: Path) -> None:
    with pytest.raises(RegimeDefinitionError, match="judgment needs a range"):
        _load(tmp_path, RANGE.replace("days: judgment", "days: decision"))
    with pytest.raises(RegimeDefinitionError, match="unknown parameter 'nope'"):
        _load(tmp_path, RANGE.replace("min: grave_immediate_suspension_days", "min: nope"))
    with pytest.raises(RegimeDefinitionError, match="expected one of"):
        _load(tmp_path, RANGE.replace("min: grave_immediate_suspension_days", "min: grave_fine"))


def test_a_seizure_declares_its_release_conditions(tmp_path: Path) -> None:
    text = ENTRY.format(mechanism="seizure", target="vehicle", cite="art21_incIII")
    with pytest.raises(RegimeDefinitionError, match="declares its release"):
        _load(tmp_path, text)
    catalog = _load(tmp_path, text + "    release: {conditions: [Pagar a multa], cite: art21_incIII}\n")
    release = catalog.get("suspension").release
    assert (
        release is not None
        and release.conditions == ("Pagar a multa",)
        and catalog.get("suspension").immediate
    )


def test_regularization_must_lead_to_a_declared_cassation(tmp_path: Path) -> None:
    text = ENTRY.format(mechanism="suspension", target="permit", cite="art24_parun")
    text += "    regularization: {then: cassation, cite: art24_parun}\n"
    with pytest.raises(RegimeDefinitionError, match="regularization.then"):
        _load(tmp_path, text)


def test_a_sanction_rule_naming_an_undeclared_penalty_fails_loudly() -> None:
    catalog = get_regime(REGIME).penalties
    assert catalog is not None
    catalog.check_result({"penalties": [{"kind": "fine"}, {"kind": "immediate_suspension"}]})
    with pytest.raises(RegimeDefinitionError, match="returned penalty 'jail'"):
        catalog.check_result({"penalties": [{"kind": "jail"}]})


def test_olimpia_art24_sole_paragraph_names_the_immediate_suspension() -> None:
    from lawcode.facts import InfractionCase, Operator

    case = InfractionCase(code="OLI-24-II", date=dt.date(2026, 3, 12), operator=Operator(kind="PF"))
    decision = get_regime(REGIME).evaluate("sanction", case, as_of=dt.date(2026, 3, 12))
    kinds = [p["kind"] for p in decision.result["penalties"]]
    assert "immediate_suspension" in kinds and "suspension" not in kinds
    kind = get_regime(REGIME).penalties.get("immediate_suspension")  # type: ignore[union-attr]
    assert kind.immediate and kind.regularization is not None and kind.regularization.then == "cassation"
