"""Decisions are deterministic, cite what they decide and explain counterfactuals in Portuguese."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from lawcode.config import Config
from lawcode.decision import Decision
from lawcode.errors import LawNotInForceError, MissingParameterError
from lawcode.regime import Regime

from .conftest import AS_OF


def permit_facts(**vehicle: Any) -> dict[str, Any]:
    base = {
        "plate": "PTC1A23",
        "manufacture_year": 2020,
        "seats": 5,
        "doors": 4,
        "air_conditioning": True,
        "registration_municipality": "Patrocínio/MG",
        "category": "particular",
        "ownership": {"kind": "own"},
        "inspection_approved_on": "2026-01-26",
        "last_maintenance": "2025-12-10",
        "documents": [{"kind": "crlv", "expiry_date": "2026-12-31"}, {"kind": "inspection_fee_receipt"}],
    }
    return {"operator": {"kind": "PF"}, "vehicle_drivers": 1, "vehicle": {**base, **vehicle}}


def test_same_facts_same_date_give_identical_decisions(regime: Regime) -> None:
    first = regime.evaluate("vehicle_permit", permit_facts(), as_of=AS_OF).to_dict()
    second = regime.evaluate("vehicle_permit", permit_facts(), as_of=AS_OF).to_dict()
    assert first == second
    assert Decision.from_dict(first).to_dict() == first


def test_every_finding_cites_a_dispositivo(regime: Regime) -> None:
    decision = regime.evaluate("vehicle_permit", permit_facts(doors=2, seats=8), as_of=AS_OF)
    assert decision.outcome == "denied"
    assert all(finding.citations for finding in decision.findings)
    assert {f.code for f in decision.findings if f.status.value == "not_met"} == {"doors", "capacity"}


def test_accents_and_state_suffix_do_not_matter_for_the_municipality(regime: Regime) -> None:
    decision = regime.evaluate(
        "vehicle_permit", permit_facts(registration_municipality="PATROCINIO - MG"), as_of=AS_OF
    )
    assert decision.outcome == "granted"


def test_age_counterfactual_names_the_oldest_acceptable_year(regime: Regime) -> None:
    facts = permit_facts(manufacture_year=2014, ownership={"kind": "own", "since": "2026-01-02"})
    explanation = regime.evaluate("vehicle_permit", facts, as_of=AS_OF).explain()
    assert "seria deferido se o veículo fosse fabricado a partir de 2016" in explanation


def test_the_law_is_not_applied_before_it_takes_effect(regime: Regime) -> None:
    with pytest.raises(LawNotInForceError):
        regime.evaluate("vehicle_permit", permit_facts(), as_of=dt.date(2025, 12, 21))
    first_day = regime.evaluate("vehicle_permit", permit_facts(), as_of=dt.date(2025, 12, 22))
    assert first_day.outcome == "denied"  # the vistoria of 26/01/2026 has not happened yet on that day
    assert first_day.finding("inspection").status.value == "not_met"  # type: ignore[union-attr]


def test_ufm_conversion_needs_a_configured_value(regime: Regime) -> None:
    facts = {"quantity": "0.25", "unit": "ufm", "infraction_date": "2026-03-01"}
    with pytest.raises(MissingParameterError) as raised:
        regime.evaluate("fine_amount", facts, as_of=AS_OF)
    assert raised.value.name == "ufm"
    config = Config.from_dict(
        {"parameters": {"ufm": [{"from": "2026-01-01", "value": "4.10", "cite": "art8"}]}}
    )
    decision = regime.evaluate("fine_amount", facts, as_of=AS_OF, config=config)
    assert decision.result["brl"] == Decimal("1.03")  # 0,25 × 4,10 = 1,025 → meia para cima
