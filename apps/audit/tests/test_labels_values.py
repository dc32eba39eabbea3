"""Audit values as people read them: no raw code, English word, ISO instant or UTC date (issue 26)."""

from __future__ import annotations

import pytest

from apps.audit.labels import detail_lines, format_value, value_label

pytestmark = pytest.mark.django_db


def _shown(object_type: str, before: object, after: object) -> list[tuple[str, str, str]]:
    return [(line.field, line.before, line.after) for line in detail_lines(object_type, before, after)]


def test_an_engine_outcome_reads_in_portuguese() -> None:
    assert _shown("licensing.application", {"outcome": "denied"}, {"outcome": "granted"}) == [
        ("resultado", "Indeferido", "Deferido")
    ]


def test_a_regime_reads_by_its_name_even_inside_a_nested_value() -> None:
    shown = format_value(value_label(None, "data", {"regime": "olimpia_sp_escolar", "kind": "x"}))
    assert "olimpia_sp_escolar" not in shown and shown.startswith("regime: ") and "tipo: x" in shown


def test_a_choice_of_another_model_reads_by_its_label() -> None:
    # "granted" stored under "verdict" on an event about the case, not the judgment that declares the choice.
    assert value_label(None, "verdict", "granted") == "Procedente — auto cancelado"


@pytest.mark.local_clock
def test_an_instant_reads_in_the_municipalitys_time() -> None:
    assert format_value("2026-12-07T01:30:00+00:00") == "06/12/2026 às 22:30"
    assert format_value("2026-12-06") == "06/12/2026"


def test_a_nested_key_reads_as_a_label() -> None:
    assert format_value(value_label(None, "data", {"holder_document": "***.982.247-**"})) == (
        "CPF/CNPJ do titular: ***.982.247-**"
    )


def test_a_document_kind_reads_as_the_regime_names_it() -> None:
    from apps.registry.catalog import regime_kinds

    key, kind = next(iter(regime_kinds("olimpia_sp_escolar").items()))
    shown = format_value(value_label(None, "data", {"kind": key}))
    assert shown == f"tipo: {kind.label}" and key not in shown.removeprefix("tipo: ")
