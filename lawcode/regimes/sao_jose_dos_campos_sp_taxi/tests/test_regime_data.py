"""São José dos Campos táxi: the scenarios reach every question and interpretation option, and the catalog,
parameters and renewal table agree with the law's text."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from lawcode import evaluate
from lawcode.config import Config
from lawcode.facts import InfractionCase, Operator, PriorSanction
from lawcode.regime import Regime
from lawcode.registry import get_regime
from lawcode.scenarios import ScenarioCase, load_scenario_file

REGIME_ID = "sao_jose_dos_campos_sp_taxi"
SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.fixture(scope="module")
def regime() -> Regime:
    return get_regime(REGIME_ID)


def _cases() -> list[ScenarioCase]:
    return [case for path in sorted(SCENARIOS.glob("*.yaml")) for case in load_scenario_file(path).cases]


def test_every_interpretation_option_has_a_scenario(regime: Regime) -> None:
    used: set[tuple[str, str]] = set()
    for case in _cases():
        overrides = dict((case.config or {}).get("interpretations") or {})
        used |= {(int_id, str(option)) for int_id, option in overrides.items()}
        used |= {(int_id, str(option)) for int_id, option in case.expect.interpretations.items() if option}
    # Interpretations read only by a declaration (procedure.yaml's electronic notice) are applied by the apps
    # when a notice is sent or its lapse runs, and tested there (apps/portal, apps/enforcement): no rule
    # decides with them, so no scenario can record them.
    declared = (
        regime.procedure.electronic_notice.interpretations
        if regime.procedure.electronic_notice
        else frozenset()
    )
    missing = sorted(
        (int_id, option)
        for int_id, interpretation in regime.interpretations.items()
        if int_id not in declared
        for option in interpretation.options
        if (int_id, option) not in used
    )
    assert not missing, f"interpretation options without a scenario: {missing}"


def test_every_question_the_regime_answers_has_scenarios(regime: Regime) -> None:
    asked = {case.question for case in _cases()}
    assert set(regime.questions()) <= asked


def test_every_art23_inciso_is_in_the_catalog_with_its_ceiling(regime: Regime) -> None:
    """Each inciso's "Penalidade" line names its ceiling; the catalog's fine_max parameter must match it."""
    for entry in regime.catalog.values():
        if entry.extra.get("penalty") != "range_fine":
            continue
        ceiling = (
            regime.parameters[str(entry.extra["fine_max"])].value_on(dt.date(2012, 5, 18), REGIME_ID).value
        )
        wording = regime.law_text.get(entry.cite).versions[-1].text
        assert f"R$ {ceiling:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".") in wording, (
            entry.code
        )
    assert len([e for e in regime.catalog.values() if e.cite.startswith("art23_inc")]) == 22


def test_renewal_table_matches_article_6(regime: Regime) -> None:
    table = regime.parameters["renewal_month_by_final_digit"].value_on(dt.date(2012, 5, 18), REGIME_ID).value
    months = ("Janeiro", "Fevereiro", "Março", "Abril", "Maio")
    text = regime.law_text.get("art6").versions[-1].text
    for digit, month in table.items():
        assert f"{months[month - 1]} Final {digit - digit % 2} e {digit - digit % 2 + 1}" in text


def test_a_repeated_doubled_fine_keeps_opening_cassation_and_the_fine_is_reindexed_per_year() -> None:
    history = tuple(
        PriorSanction(
            infraction_code="SJC-23-VI", infraction_date=dt.date(2012, m, 1), final_on=dt.date(2012, m, 20)
        )
        for m in (6, 8, 10)
    )
    config = Config.from_dict(
        {
            "parameters": {
                "fine_update_percent": [{"from": "2013-01-01", "value": "5.56", "cite": "art22_par2"}]
            }
        }
    )
    facts = InfractionCase(
        code="SJC-23-VI",
        date=dt.date(2013, 2, 1),
        operator=Operator(kind="PF", history=history),
        judged={"graded_fine": Decimal("154.48")},
    )
    decision = evaluate(REGIME_ID, "sanction", facts, as_of=dt.date(2013, 2, 10), config=config)
    assert decision.result["cassation"] is True
    assert decision.result["fine_brl"] == Decimal("163.07")  # 154.48 × 1.0556 = 163.069…
    assert decision.result["fine_max_brl"] == Decimal("3261.49")  # 3089.70 × 1.0556 = 3261.487…, rounded once
