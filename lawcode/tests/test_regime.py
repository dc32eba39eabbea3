"""Engine behaviour on the demo fixture regime: loading checks, evaluation, decisions, configuration."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from decimal import Decimal

import pytest

from lawcode.config import Config
from lawcode.context import Context
from lawcode.decision import Decision
from lawcode.errors import (
    CitationMissingError,
    InvalidFactError,
    LawNotInForceError,
    MissingFactError,
    MissingParameterError,
    QuestionNotApplicableError,
    RegimeDefinitionError,
    UnknownDispositivoError,
    UnknownInterpretationError,
    UnknownParameterError,
)
from lawcode.regime import Regime
from lawcode.tests.fixtures.core.demo_sp import rules as demo_rules

Copy = Callable[[dict[str, str]], Regime]
DEMO_DIR = demo_rules.__file__.rsplit("/", 1)[0]
PERMIT = {"operator": {"kind": "PF"}, "vehicle": {"manufacture_year": 2008}}


def demo_text(name: str) -> str:
    with open(f"{DEMO_DIR}/{name}", encoding="utf-8") as handle:
        return handle.read()


def replaced(name: str, old: str, new: str) -> dict[str, str]:
    text = demo_text(name)
    assert old in text, f"{old!r} not in {name}"
    return {name: text.replace(old, new, 1)}


# --- loading protections ---------------------------------------------------------------------------------


def test_parameter_value_without_cite_fails_naming_file_and_line(demo_copy: Copy) -> None:
    with pytest.raises(CitationMissingError) as error:
        demo_copy(replaced("parameters.yaml", "      cite: art2_incI\n", ""))
    assert error.value.file is not None and error.value.file.endswith("parameters.yaml")
    assert error.value.line == 5
    assert "parameters.yaml:5" in error.value.message


def test_parameter_citing_unknown_dispositivo_fails(demo_copy: Copy) -> None:
    with pytest.raises(UnknownDispositivoError) as error:
        demo_copy(replaced("parameters.yaml", "cite: art2_incI", "cite: art2_incIX"))
    assert error.value.line == 7 and "art2_incIX" in error.value.message
    assert "art2_incI" in error.value.message  # the hint lists the article's real dispositivos


def test_citing_an_undeclared_external_dispositivo_fails(demo_copy: Copy) -> None:
    with pytest.raises(UnknownDispositivoError):
        demo_copy(replaced("parameters.yaml", "cite: art2_incI", "cite: ctb:art999"))


def test_interpretation_basis_is_validated(demo_copy: Copy) -> None:
    with pytest.raises(UnknownDispositivoError):
        demo_copy(replaced("interpretations.yaml", "basis: [art2A]", "basis: [art9]"))


def test_interpretation_default_must_be_an_option(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        demo_copy(replaced("interpretations.yaml", "default: infraction_date", "default: payment_date"))
    assert error.value.line == 6


def test_catalog_and_not_computable_citations_are_validated(demo_copy: Copy) -> None:
    with pytest.raises(UnknownDispositivoError):
        demo_copy(replaced("catalog.yaml", "cite: art2A", "cite: art2B"))
    with pytest.raises(UnknownDispositivoError):
        demo_copy(replaced("not_computable.yaml", "cite: art1", "cite: art1_parun"))


def test_unknown_key_and_unknown_unit_are_rejected(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        demo_copy(replaced("parameters.yaml", "      value: 10\n", "      vlaue: 10\n"))
    assert "vlaue" in error.value.message
    with pytest.raises(RegimeDefinitionError) as error:
        demo_copy(replaced("parameters.yaml", "unit: years", "unit: decades"))
    assert "decades" in error.value.message and error.value.line == 3


def test_duplicate_yaml_key_and_malformed_yaml_name_the_line(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        demo_copy(replaced("parameters.yaml", "min_driver_age:", "max_vehicle_age:"))
    assert "duplicate key" in error.value.message and error.value.line == 8
    with pytest.raises(RegimeDefinitionError) as error:
        demo_copy(replaced("parameters.yaml", "  unit: years\n", "  unit: [years\n"))
    assert "malformed YAML" in error.value.message and error.value.line is not None


def test_undeclared_amendment_in_text_fails_loading(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError):
        demo_copy(replaced("regime.yaml", "in_force: 2021-07-01", "in_force: 07/2021"))
    from lawcode.errors import LawTextError

    with pytest.raises(LawTextError) as error:
        demo_copy(replaced("regime.yaml", 'marker: "Lei nº 200, de 01.07.2021"', 'marker: "Lei 200/2021"'))
    assert "Lei nº 200, de 01.07.2021" in error.value.message


# --- evaluation ------------------------------------------------------------------------------------------


def test_denied_with_citation_parameter_and_counterfactual(demo: Regime) -> None:
    decision = demo.evaluate("vehicle_permit", PERMIT, as_of=dt.date(2022, 3, 1))
    assert decision.outcome == "denied"
    finding = decision.finding("vehicle_age")
    assert finding is not None and finding.status.value == "not_met"
    assert finding.counterfactual == "seria deferido se o veículo fosse fabricado a partir de 2012"
    assert [c.render() for c in decision.citations] == ["Lei 100/2020 (Demo), art. 2º, I"]
    assert [(p.name, p.value, p.effective_from) for p in decision.parameters] == [
        ("max_vehicle_age", 10, dt.date(2020, 1, 10))
    ]


def test_granted_when_every_requirement_is_met(demo: Regime) -> None:
    facts = {"operator": {"kind": "PF"}, "vehicle": {"manufacture_year": 2015}}
    assert demo.evaluate("vehicle_permit", facts, as_of=dt.date(2022, 3, 1)).outcome == "granted"


def test_same_facts_and_date_give_identical_json_safe_dicts(demo: Regime) -> None:
    first = demo.evaluate(
        "fine_amount",
        {"quantity": "15", "unit": "ufesp", "infraction_date": "2026-02-10"},
        as_of=dt.date(2026, 3, 1),
    ).to_dict()
    second = demo.evaluate(
        "fine_amount",
        {"quantity": "15", "unit": "ufesp", "infraction_date": "2026-02-10"},
        as_of=dt.date(2026, 3, 1),
    ).to_dict()
    assert first == second
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
    assert first["result"] == {"brl": "576.30", "valued_on": "2026-02-10"}


def test_decision_round_trips_through_from_dict(demo: Regime) -> None:
    decision = demo.evaluate("vehicle_permit", PERMIT, as_of=dt.date(2022, 3, 1))
    stored = json.loads(json.dumps(decision.to_dict()))
    replayed = Decision.from_dict(stored)
    assert replayed.to_dict() == decision.to_dict()
    assert replayed.explain() == Decision.from_dict(decision.to_dict()).explain()


def test_explanation_in_portuguese_lists_everything_used(demo: Regime) -> None:
    decision = demo.evaluate(
        "fine_amount",
        {"quantity": "10", "unit": "ufesp", "infraction_date": "2025-05-01"},
        as_of=dt.date(2025, 6, 1),
    )
    text = decision.explain()
    assert text.startswith(
        "Resultado: Calculado\nPergunta: Valor da multa em reais (fine_amount) — regime demo_sp"
    )
    assert "Lei 100/2020 (Demo), art. 2º-A (incluído pela Lei 200/2021)" in text
    assert "R$ 37,02 (vigente desde 01/01/2025; Comunicado SEFAZ-SP DICAR-88/24)" in text
    assert "INT-GEN-FINE-VALUATION-DATE" in text and "Na data da infração." in text
    assert "brl: R$ 370,20" in text and "valued_on: 01/05/2025" in text
    wording = "A multa por infração é de 10 UFESP."
    assert f"  - Lei 100/2020 (Demo), art. 2º-A (incluído pela Lei 200/2021): “{wording}”" in text
    denied = demo.evaluate("vehicle_permit", PERMIT, as_of=dt.date(2022, 3, 1)).explain()
    assert denied.startswith("Resultado: Indeferido")
    assert "Contrafactual: seria deferido se o veículo fosse fabricado a partir de 2012" in denied


def test_citation_carries_the_wording_version_of_the_date(demo: Regime) -> None:
    before = demo.resolve_citation("art2", dt.date(2021, 6, 30))
    after = demo.resolve_citation("art2", dt.date(2021, 7, 1))
    assert (before.version, before.render()) == ("original", "Lei 100/2020 (Demo), art. 2º")
    assert after.version == "lei200_2021"
    assert after.render() == "Lei 100/2020 (Demo), art. 2º (redação da Lei 200/2021)"


def test_date_before_the_law_raises_law_not_in_force(demo: Regime) -> None:
    with pytest.raises(LawNotInForceError) as error:
        demo.evaluate("vehicle_permit", PERMIT, as_of=dt.date(2020, 1, 9))
    assert "2020-01-10" in error.value.message and "10/01/2020" in error.value.message_pt
    answer = demo.evaluate("law_in_force", {}, as_of=dt.date(2020, 1, 9))
    assert answer.outcome == "not_in_force"
    assert demo.evaluate("law_in_force", {}, as_of=dt.date(2020, 1, 10)).outcome == "in_force"


def test_unknown_ufm_value_raises_missing_parameter_naming_what_to_configure(demo: Regime) -> None:
    with pytest.raises(MissingParameterError) as error:
        demo.evaluate(
            "fine_amount",
            {"quantity": "5", "unit": "ufm", "infraction_date": "2025-05-01"},
            as_of=dt.date(2025, 6, 1),
        )
    assert error.value.name == "ufm" and "Config.parameters" in error.value.message
    assert "'ufm'" in error.value.message_pt


def test_configured_ufm_value_is_used_and_recorded(demo: Regime) -> None:
    config = Config.from_dict(
        {
            "parameters": {
                "ufm": [
                    {"from": "2025-01-01", "value": "5.20", "cite": "art2A_par1", "note": "Decreto municipal"}
                ]
            }
        }
    )
    decision = demo.evaluate(
        "fine_amount",
        {"quantity": "5", "unit": "ufm", "infraction_date": "2025-05-01"},
        as_of=dt.date(2025, 6, 1),
        config=config,
    )
    assert decision.result["brl"] == Decimal("26.00")
    assert decision.inputs["config"]["parameters"]["ufm"][0]["value"] == "5.20"


def test_ufesp_has_no_value_outside_its_year(demo: Regime) -> None:
    with pytest.raises(MissingParameterError) as error:
        demo.evaluate(
            "fine_amount",
            {"quantity": "10", "unit": "ufesp", "infraction_date": "2027-01-05"},
            as_of=dt.date(2027, 2, 1),
        )
    assert "2027" in error.value.message


def test_interpretation_override_changes_the_decision(demo: Regime) -> None:
    facts = {
        "quantity": "10",
        "unit": "ufesp",
        "infraction_date": "2025-12-20",
        "guide_issue_date": "2026-01-10",
    }
    default = demo.evaluate("fine_amount", facts, as_of=dt.date(2026, 2, 1))
    config = Config(interpretations={"INT-GEN-FINE-VALUATION-DATE": "guide_issue_date"})
    overridden = demo.evaluate("fine_amount", facts, as_of=dt.date(2026, 2, 1), config=config)
    assert default.result["brl"] == Decimal("370.20") and overridden.result["brl"] == Decimal("384.20")
    assert [(i.id, i.option, i.is_default) for i in overridden.interpretations] == [
        ("INT-GEN-FINE-VALUATION-DATE", "guide_issue_date", False)
    ]


def test_unknown_interpretation_option_fails(demo: Regime) -> None:
    config = Config(interpretations={"INT-GEN-FINE-VALUATION-DATE": "payment_date"})
    with pytest.raises(UnknownInterpretationError):
        demo.evaluate(
            "fine_amount",
            {"quantity": "1", "unit": "ufesp", "infraction_date": "2025-05-01"},
            as_of=dt.date(2025, 6, 1),
            config=config,
        )
    with pytest.raises(UnknownInterpretationError):
        Context(demo, dt.date(2025, 6, 1)).interpretation("INT-GEN-NOPE")
    with pytest.raises(UnknownInterpretationError):  # even when the rule never asks for it
        demo.evaluate(
            "vehicle_permit",
            PERMIT,
            as_of=dt.date(2022, 3, 1),
            config=Config(interpretations={"INT-GEN-FINE-VALUATION-DAT": "infraction_date"}),
        )


def test_reform_through_config_changes_a_parameter(demo: Regime) -> None:
    config = Config.from_dict(
        {"parameters": {"max_vehicle_age": [{"from": "2022-01-01", "value": 15, "cite": "art2_incI"}]}}
    )
    assert (
        demo.evaluate("vehicle_permit", PERMIT, as_of=dt.date(2022, 3, 1), config=config).outcome == "granted"
    )
    assert (
        demo.evaluate("vehicle_permit", PERMIT, as_of=dt.date(2021, 12, 31), config=config).outcome
        == "denied"
    )


def test_config_for_unknown_parameter_or_without_cite_fails(demo: Regime) -> None:
    with pytest.raises(UnknownParameterError):
        demo.evaluate(
            "vehicle_permit",
            PERMIT,
            as_of=dt.date(2022, 3, 1),
            config=Config.from_dict(
                {"parameters": {"max_age": [{"from": "2022-01-01", "value": 1, "cite": "art2_incI"}]}}
            ),
        )
    with pytest.raises(CitationMissingError):
        Config.from_dict({"parameters": {"max_vehicle_age": [{"from": "2022-01-01", "value": 1}]}})
    with pytest.raises(UnknownDispositivoError):
        demo.evaluate(
            "vehicle_permit",
            PERMIT,
            as_of=dt.date(2022, 3, 1),
            config=Config.from_dict(
                {"parameters": {"max_vehicle_age": [{"from": "2022-01-01", "value": 1, "cite": "art77"}]}}
            ),
        )


def test_config_value_confidence_must_be_a_known_grade(demo: Regime) -> None:
    config = Config.from_dict(
        {
            "parameters": {
                "max_vehicle_age": [
                    {"from": "2022-01-01", "value": 12, "cite": "art2_incI", "confidence": "high"}
                ]
            }
        }
    )
    with pytest.raises(RegimeDefinitionError) as error:
        demo.evaluate("vehicle_permit", PERMIT, as_of=dt.date(2022, 3, 1), config=config)
    assert "'high'" in error.value.message


def test_missing_fact_names_the_field(demo: Regime) -> None:
    with pytest.raises(MissingFactError) as error:
        demo.evaluate(
            "vehicle_permit", {"operator": {"kind": "PF"}, "vehicle": {}}, as_of=dt.date(2022, 3, 1)
        )
    assert error.value.field_path == "vehicle.manufacture_year"
    with pytest.raises(MissingFactError) as error:
        demo.evaluate("vehicle_permit", {"vehicle": {}}, as_of=dt.date(2022, 3, 1))
    assert error.value.field_path == "operator"


def test_unknown_or_mistyped_facts_are_rejected(demo: Regime) -> None:
    with pytest.raises(InvalidFactError) as error:
        demo.evaluate(
            "vehicle_permit",
            {"operator": {"kind": "PF"}, "vehicle": {"manufacture_yaer": 2010}},
            as_of=dt.date(2022, 3, 1),
        )
    assert error.value.field_path == "vehicle.manufacture_yaer"
    with pytest.raises(InvalidFactError) as error:
        demo.evaluate(
            "vehicle_permit", {"operator": {"kind": "XX"}, "vehicle": {}}, as_of=dt.date(2022, 3, 1)
        )
    assert error.value.field_path == "operator.kind"


def test_question_not_implemented_or_unknown(demo: Regime) -> None:
    with pytest.raises(QuestionNotApplicableError) as error:
        demo.evaluate("sanction", {}, as_of=dt.date(2022, 3, 1))
    assert "fine_amount" in error.value.message
    with pytest.raises(QuestionNotApplicableError):
        demo.evaluate("make_coffee", {}, as_of=dt.date(2022, 3, 1))


def test_a_rule_may_cite_only_what_it_declares(demo: Regime) -> None:
    ctx = Context(demo, dt.date(2022, 3, 1), allowed_cites=("art2",))
    assert ctx.cite("art2").dispositivo == "art2"
    with pytest.raises(RegimeDefinitionError):
        ctx.cite("art3")


def test_citing_an_inserted_dispositivo_before_its_insertion_fails(demo: Regime) -> None:
    from lawcode.errors import DispositivoNotInForceError

    with pytest.raises(DispositivoNotInForceError) as error:
        demo.resolve_citation("art2A", dt.date(2021, 6, 30))
    expected = "o dispositivo art2A (demo-100-2020) não tem redação vigente em 30/06/2021"
    assert error.value.message_pt.startswith(expected)


def test_context_calendar_has_municipal_holidays_and_configured_closures(demo: Regime) -> None:
    plain = Context(demo, dt.date(2026, 3, 1)).calendar
    assert not plain.is_business_day(dt.date(2026, 3, 2))  # Aniversário de Demo (calendar.yaml)
    assert plain.is_business_day(dt.date(2026, 3, 3))
    config = Config.from_dict(
        {
            "closures": [{"date": "2026-03-03", "name": "Ponto facultativo"}],
            "municipal_holidays": [{"date": "2026-03-04", "name": "Feriado decretado"}],
        }
    )
    configured = Context(demo, dt.date(2026, 3, 1), config).calendar
    assert not configured.is_business_day(dt.date(2026, 3, 3))
    assert not configured.is_business_day(dt.date(2026, 3, 4))
    assert configured.is_business_day(dt.date(2026, 3, 5))
    early = Context(
        demo,
        dt.date(2026, 3, 1),
        Config.from_dict({"early_closings": [{"date": "2026-03-05", "name": "Expediente até 12h"}]}),
    )
    assert early.calendar.is_business_day(dt.date(2026, 3, 5))
    assert not early.calendar.can_end_deadline(dt.date(2026, 3, 5))


BINDING = """        in_force_by_interpretation:
          interpretation: INT-GEN-AMENDMENT-START
          options: {publication: 2021-07-01, later: 2021-09-01}
"""
START_INTERPRETATION = """
INT-GEN-AMENDMENT-START:
  question: Quando começou a valer a Lei 200/2021?
  options:
    publication: Na publicação.
    later: Sessenta dias depois.
  default: publication
  rationale: Teste.
  basis: [art3]
"""


def bound_demo(demo_copy: Copy, binding: str = BINDING) -> Regime:
    regime_yaml = demo_text("regime.yaml") + binding
    return demo_copy(
        {
            "regime.yaml": regime_yaml,
            "interpretations.yaml": demo_text("interpretations.yaml") + START_INTERPRETATION,
        }
    )


def test_amendment_start_follows_the_chosen_interpretation(demo_copy: Copy) -> None:
    regime = bound_demo(demo_copy)
    day = dt.date(2021, 8, 1)
    later = Config(interpretations={"INT-GEN-AMENDMENT-START": "later"})
    assert Context(regime, day).cite("art2").version == "lei200_2021"
    assert Context(regime, day, later).cite("art2").version == "original"
    assert Context(regime, dt.date(2021, 9, 1), later).cite("art2").version == "lei200_2021"
    facts = {"quantity": "10", "unit": "ufesp", "infraction_date": "2021-07-15"}
    decision = regime.evaluate("fine_amount", facts, as_of=day)
    assert "INT-GEN-AMENDMENT-START" in [use.id for use in decision.interpretations]
    from lawcode.errors import DispositivoNotInForceError

    with pytest.raises(DispositivoNotInForceError):  # art. 2º-A does not exist yet under "later"
        regime.evaluate("fine_amount", facts, as_of=day, config=later)


def test_amendment_binding_must_date_every_option_and_match_the_default(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        bound_demo(demo_copy, BINDING.replace(", later: 2021-09-01", ""))
    assert "give a date for each option" in error.value.message
    with pytest.raises(RegimeDefinitionError) as error:
        bound_demo(demo_copy, BINDING.replace("publication: 2021-07-01", "publication: 2021-07-02"))
    assert "default option" in error.value.message


def test_as_of_must_be_a_plain_date(demo: Regime) -> None:
    for bad in (dt.datetime(2022, 3, 1, 10, 0), "2022-03-01"):
        with pytest.raises(InvalidFactError) as error:
            demo.evaluate("vehicle_permit", PERMIT, as_of=bad)  # type: ignore[arg-type]
        assert error.value.field_path == "as_of"
