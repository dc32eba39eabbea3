"""Decisions are deterministic and replayable; fines always equal quantity × the UFESP of their year."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

import lawcode
from lawcode.decision import Decision
from lawcode.fiscal import ufesp_table
from lawcode.registry import get_regime

from .helpers import REGIME_ID, scenario_case

UFESP = {row.year: row.value for row in ufesp_table()}
CODES = sorted(get_regime(REGIME_ID).catalog)


def evaluate_case(name: str) -> Decision:
    case = scenario_case(name)
    return lawcode.evaluate(
        REGIME_ID,
        case["question"],
        case["facts"],
        as_of=case["as_of"],
        config=lawcode.Config.from_dict(case.get("config")),
    )


def test_same_facts_same_date_give_identical_decisions() -> None:
    first = evaluate_case("gravissima_reincidente_em_6_meses_cassacao_e_multa_em_dobro").to_dict()
    second = evaluate_case("gravissima_reincidente_em_6_meses_cassacao_e_multa_em_dobro").to_dict()
    assert first == second
    assert Decision.from_dict(first).to_dict() == first


def test_a_denial_explains_itself_with_a_counterfactual() -> None:
    text = evaluate_case("veiculo_2010_indeferido_pela_diferenca_de_anos").explain()
    assert "art. 13, II" in text
    assert "seria deferido se o veículo fosse fabricado a partir de 2011" in text


def test_every_finding_cites_the_law() -> None:
    decision = evaluate_case("alvara_novo_veiculo_2011_deferido_valido_12_meses")
    assert decision.findings and all(finding.citations for finding in decision.findings)


@settings(max_examples=60, deadline=None)
@given(code=st.sampled_from(CODES), day=st.dates(dt.date(2025, 9, 24), dt.date(2026, 12, 31)))
def test_fines_are_the_quantity_times_the_ufesp_of_the_infraction_year(code: str, day: dt.date) -> None:
    facts = {"code": code, "date": day, "operator": {"kind": "PF", "person": {"name": "Teste"}}}
    decision = lawcode.evaluate(REGIME_ID, "sanction", facts, as_of=day)
    result = decision.result
    assert decision.outcome == "penalty"
    if result["fine_quantity"] is None:
        assert result["warning"] is True
    else:
        assert result["fine_brl"] == (Decimal(result["fine_quantity"]) * UFESP[day.year]).quantize(
            Decimal("0.01")
        )
