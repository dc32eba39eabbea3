"""Regime-declared vocabularies on the demo fixture: document kinds, extra fact fields and fine units."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal

import pytest

from lawcode.config import Config
from lawcode.errors import (
    InvalidFactError,
    MissingParameterError,
    RegimeDefinitionError,
    UnknownDispositivoError,
)
from lawcode.fields import parse_decimal_pt
from lawcode.regime import Regime

Copy = Callable[[dict[str, str]], Regime]
PERMIT = {"operator": {"kind": "PF"}, "vehicle": {"manufacture_year": 2018}}
AS_OF = dt.date(2025, 6, 1)

DOCUMENTS = """
documents:
  crlv:
    label: Certificado de Registro e Licenciamento de Veículo (CRLV-e)
    presented_by: [vehicle]
    cite: art2
    details:
      exercise_year: {type: int, label: Exercício do licenciamento, min: 2000, cite: art2}
      court: {type: choice, label: Órgão emissor, choices: {federal: Justiça Federal}, cite: art2}
    validity: {rule: printed_expiry, cite: art2}
"""

FACTS = """
application_fields: {}
fields:
  vehicle:
    children_under_12_aboard: {type: bool, label: "Transporta crianças menores de 12 anos?", cite: art2_incI}
    taximeter_seal_date: {type: date, label: Data do lacre do taxímetro, cite: art2_incI}
  driver:
    licence_years_in_category: {type: int, label: Anos de habilitação na categoria, min: 0, cite: art2_incII}
"""

INDEXED_UNITS = """
units:
  ufesp: {label: UFESP, name: UFESP, valued_by: parameter, parameter: ufesp, per_calendar_year: true, cite: art2A}
  ufm: {label: UFM, name: UFM, valued_by: parameter, parameter: ufm, cite: art2A_par1}
  brl_inpc:
    label: R$ (INPC)
    name: Reais de 2020 reajustados pelo INPC
    valued_by: index
    parameter: fine_reindex
    base: 2020-01-10
    cite: art2A
"""

REINDEX = """
fine_reindex:
  description: Reajuste anual das multas pelo INPC
  unit: percent
  configurable: true
  values:
    - {from: 2024-01-01, value: "4.00", cite: art2A}
    - {from: 2025-01-01, value: "5.56", cite: art2A}
"""


def demo_parameters() -> str:
    from lawcode.tests.test_regime import demo_text

    return demo_text("parameters.yaml")


def permit_with_vehicle(**vehicle: object) -> dict[str, object]:
    return {"operator": {"kind": "PF"}, "vehicle": {"manufacture_year": 2018, **vehicle}}


# --- document kinds ----------------------------------------------------------------------------------------


def test_a_declared_kind_is_accepted_and_its_details_typed(demo_copy: Copy) -> None:
    regime = demo_copy({"documents.yaml": DOCUMENTS})
    facts = permit_with_vehicle(documents=[{"kind": "crlv", "details": {"exercise_year": "2025"}}])
    decision = regime.evaluate("vehicle_permit", facts, as_of=AS_OF)
    assert decision.inputs["facts"]["vehicle"]["documents"][0]["details"] == {"exercise_year": 2025}
    assert regime.vocabulary.documents.label("crlv").startswith("Certificado de Registro")


def test_an_undeclared_kind_is_refused_in_portuguese_listing_the_declared_ones(demo_copy: Copy) -> None:
    regime = demo_copy({"documents.yaml": DOCUMENTS})
    with pytest.raises(InvalidFactError) as error:
        regime.evaluate("vehicle_permit", permit_with_vehicle(documents=[{"kind": "passport"}]), as_of=AS_OF)
    assert error.value.field_path == "vehicle.documents[0].kind"
    assert (
        "não é previsto pela lei do regime" in error.value.message_pt and "CRLV-e" in error.value.message_pt
    )


def test_without_documents_yaml_every_document_is_refused(demo_copy: Copy) -> None:
    regime = demo_copy({})
    with pytest.raises(InvalidFactError, match="no documents.yaml"):
        regime.evaluate("vehicle_permit", permit_with_vehicle(documents=[{"kind": "crlv"}]), as_of=AS_OF)


def test_bad_details_name_the_field_and_the_article(demo_copy: Copy) -> None:
    regime = demo_copy({"documents.yaml": DOCUMENTS})
    bad = [
        ({"exercise_year": "dois mil"}, "informe um número inteiro"),
        ({"exercise_year": 1999}, "a partir de"),
        ({"court": "state"}, "uma das opções"),
        ({"colour": "white"}, "não está prevista"),
    ]
    for details, words in bad:
        facts = permit_with_vehicle(documents=[{"kind": "crlv", "details": details}])
        with pytest.raises(InvalidFactError) as error:
            regime.evaluate("vehicle_permit", facts, as_of=AS_OF)
        assert words in error.value.message_pt, details
    assert "Exercício do licenciamento" in error.value.message_pt or "CRLV-e" in error.value.message_pt
    facts = permit_with_vehicle(documents=[{"kind": "crlv", "details": {"exercise_year": "x"}}])
    with pytest.raises(InvalidFactError) as error:
        regime.evaluate("vehicle_permit", facts, as_of=AS_OF)
    assert (
        error.value.message_pt.startswith("Exercício do licenciamento")
        and "art. 2º" in error.value.message_pt
    )


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (DOCUMENTS.replace("presented_by: [vehicle]", "presented_by: [driverr]"), "presented_by"),
        (DOCUMENTS.replace("rule: printed_expiry", "rule: forever"), "validity rule"),
        (DOCUMENTS.replace("rule: printed_expiry", "rule: document_validity"), "does not define"),
        (DOCUMENTS.replace("    cite: art2\n", "    cite: art99\n", 1), "art99"),
        (DOCUMENTS.replace("type: int", "type: integer"), "type 'integer'"),
        (DOCUMENTS.replace("choices: {federal: Justiça Federal}, ", ""), "choices"),
        (DOCUMENTS.replace("    label: Certificado", "    labl: Certificado"), "unknown key 'labl'"),
    ],
)
def test_a_malformed_declaration_fails_loading_with_file_and_line(
    demo_copy: Copy, text: str, error: str
) -> None:
    with pytest.raises((RegimeDefinitionError, UnknownDispositivoError)) as raised:
        demo_copy({"documents.yaml": text})
    assert error in raised.value.message and "documents.yaml:" in raised.value.message


# --- extra fact fields -------------------------------------------------------------------------------------


def test_extra_facts_are_typed_by_the_schema(demo_copy: Copy) -> None:
    regime = demo_copy({"facts.yaml": FACTS})
    facts = permit_with_vehicle(
        extra={"children_under_12_aboard": "sim", "taximeter_seal_date": "05/03/2025"}
    )
    decision = regime.evaluate("vehicle_permit", facts, as_of=AS_OF)
    assert decision.inputs["facts"]["vehicle"]["extra"] == {
        "children_under_12_aboard": True,
        "taximeter_seal_date": "2025-03-05",
    }
    assert set(regime.vocabulary.facts.for_entity("driver")) == {"licence_years_in_category"}


def test_an_undeclared_or_mistyped_extra_fact_is_refused(demo_copy: Copy) -> None:
    regime = demo_copy({"facts.yaml": FACTS})
    with pytest.raises(InvalidFactError) as error:
        regime.evaluate("vehicle_permit", permit_with_vehicle(extra={"colour": "white"}), as_of=AS_OF)
    assert error.value.field_path == "vehicle.extra.colour"
    facts = {
        **PERMIT,
        "drivers": [{"person": {}, "role": "principal", "extra": {"licence_years_in_category": -1}}],
    }
    with pytest.raises(InvalidFactError) as error:
        regime.evaluate("vehicle_permit", facts, as_of=AS_OF)
    assert error.value.field_path == "drivers[0].extra.licence_years_in_category"
    assert error.value.message_pt.startswith(
        "Anos de habilitação na categoria: informe um valor a partir de 0"
    )


def test_facts_yaml_rejects_an_unknown_entity(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError, match="unknown key 'taxi'"):
        demo_copy({"facts.yaml": FACTS.replace("  driver:", "  taxi:")})


# --- fine units --------------------------------------------------------------------------------------------


def test_reais_reindexed_yearly_by_a_dated_percentage(demo_copy: Copy) -> None:
    regime = demo_copy({"units.yaml": INDEXED_UNITS, "parameters.yaml": demo_parameters() + REINDEX})
    facts = {"quantity": "286", "unit": "brl_inpc", "infraction_date": "2025-05-01"}
    decision = regime.evaluate("fine_amount", facts, as_of=AS_OF)
    # 286 × 1,04 × 1,0556 = 313,977… → R$ 313,98; both reajustes are in the trace with their citations.
    assert decision.result["brl"] == Decimal("313.98")
    assert [(use.name, use.effective_from.year) for use in decision.parameters] == [
        ("fine_reindex", 2024),
        ("fine_reindex", 2025),
    ]
    before = regime.evaluate("fine_amount", {**facts, "infraction_date": "2023-12-31"}, as_of=AS_OF)
    assert before.result["brl"] == Decimal("286.00")


YEARLY_REINDEX = {
    "parameters": {
        "fine_reindex": [
            {"from": f"{year}-01-01", "value": "2", "cite": "art2A"} for year in range(2021, 2026)
        ]
    }
}


def test_a_yearly_reajuste_not_yet_configured_is_a_missing_parameter_not_a_stale_amount(
    demo_copy: Copy,
) -> None:
    """A unit re-indexed every 1st January (per_calendar_year): from 1º/01/2026 the amount is the one updated
    by 2026's percentage; without it the engine refuses, dated that 1st January, instead of charging 2025's."""
    units = INDEXED_UNITS.replace(
        "    base: 2020-01-10\n", "    base: 2020-01-10\n    per_calendar_year: true\n"
    )
    regime = demo_copy({"units.yaml": units, "parameters.yaml": demo_parameters() + REINDEX})
    config = Config.from_dict(YEARLY_REINDEX)
    facts = {"quantity": "100", "unit": "brl_inpc", "infraction_date": "2025-12-31"}
    last_year = regime.evaluate("fine_amount", facts, as_of=dt.date(2026, 1, 2), config=config)
    assert last_year.result["brl"] == Decimal("110.41")  # 100 × 1,02⁵
    with pytest.raises(MissingParameterError) as missing:
        regime.evaluate(
            "fine_amount",
            {**facts, "infraction_date": "2026-01-02"},
            as_of=dt.date(2026, 1, 2),
            config=config,
        )
    assert (missing.value.name, missing.value.on) == ("fine_reindex", dt.date(2026, 1, 1))
    gap = Config.from_dict(
        {
            "parameters": {
                "fine_reindex": [
                    v for v in YEARLY_REINDEX["parameters"]["fine_reindex"] if "2023" not in v["from"]
                ]
            }
        }
    )
    with pytest.raises(MissingParameterError) as hole:
        regime.evaluate("fine_amount", facts, as_of=dt.date(2026, 1, 2), config=gap)
    assert hole.value.on == dt.date(2023, 1, 1)


def test_a_configured_reajuste_changes_the_amount(demo_copy: Copy) -> None:
    regime = demo_copy({"units.yaml": INDEXED_UNITS, "parameters.yaml": demo_parameters() + REINDEX})
    config = Config.from_dict(
        {"parameters": {"fine_reindex": [{"from": "2025-01-01", "value": "10", "cite": "art2A"}]}}
    )
    facts = {"quantity": "100", "unit": "brl_inpc", "infraction_date": "2025-05-01"}
    assert regime.evaluate("fine_amount", facts, as_of=AS_OF, config=config).result["brl"] == Decimal(
        "114.40"
    )


def test_an_undeclared_fine_unit_is_refused_before_the_rule(demo_copy: Copy) -> None:
    regime = demo_copy({})
    with pytest.raises(InvalidFactError) as error:
        regime.evaluate(
            "fine_amount", {"quantity": "1", "unit": "ufir", "infraction_date": "2025-05-01"}, as_of=AS_OF
        )
    assert error.value.field_path == "unit" and "não é prevista" in error.value.message_pt


@pytest.mark.parametrize(
    ("units", "error"),
    [
        (INDEXED_UNITS.replace("    base: 2020-01-10\n", ""), "'base'"),
        (INDEXED_UNITS.replace("valued_by: index", "valued_by: magic"), "valued_by"),
        (INDEXED_UNITS.replace("  ufm: {label: UFM", "  brl: {label: UFM"), "engine measure"),
    ],
)
def test_a_malformed_unit_fails_loading(demo_copy: Copy, units: str, error: str) -> None:
    with pytest.raises(RegimeDefinitionError) as raised:
        demo_copy({"units.yaml": units, "parameters.yaml": demo_parameters() + REINDEX})
    assert error in raised.value.message


def test_a_unit_valued_by_a_missing_or_mistyped_parameter_fails_loading(demo_copy: Copy) -> None:
    with pytest.raises(RegimeDefinitionError, match="fine_reindex"):
        demo_copy({"units.yaml": INDEXED_UNITS})
    with pytest.raises(RegimeDefinitionError, match="unit percent"):
        demo_copy(
            {
                "units.yaml": INDEXED_UNITS,
                "parameters.yaml": demo_parameters() + REINDEX.replace("percent", "brl"),
            }
        )


def test_decimal_comma_is_read_as_brazilians_write_it() -> None:
    assert parse_decimal_pt("5,56") == Decimal("5.56")
    assert parse_decimal_pt("1.234,56") == Decimal("1234.56")
    assert parse_decimal_pt("5.56 %") == Decimal("5.56")
    with pytest.raises(ValueError):
        parse_decimal_pt("cinco")


def test_explanations_name_a_declared_unit_by_its_label() -> None:
    from lawcode.decision import _declared_unit_labels, format_value_pt

    labels = _declared_unit_labels("olimpia_sp_escolar")
    assert labels == {"ufesp": "UFESP"}
    assert format_value_pt(Decimal("15"), "ufesp", labels) == "15 UFESP"
    assert format_value_pt(Decimal("286"), "brl", labels) == "R$ 286,00"
    assert format_value_pt(120, "count", labels) == "120"
    assert _declared_unit_labels("not_a_regime") == {}


def test_a_value_formatted_without_its_regime_uses_the_loaded_regimes_labels() -> None:
    from lawcode.decision import format_value_pt
    from lawcode.registry import get_regime

    get_regime("olimpia_sp_escolar")
    assert format_value_pt(Decimal("15"), "ufesp") == "15 UFESP"
    assert format_value_pt(Decimal("3"), "ufir") == "3 ufir"
