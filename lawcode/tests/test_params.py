"""Dated parameters, fiscal conversion and configuration parsing."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from lawcode.config import Config
from lawcode.errors import InvalidFactError, MissingParameterError, RegimeDefinitionError
from lawcode.fiscal import comunicado_key, round_brl, ufesp_parameter
from lawcode.params import Parameter, ParameterValue, coerce_value
from lawcode.units import FineUnit, Unit


def value(start: dt.date, amount: object) -> ParameterValue:
    return ParameterValue(start, amount, "art1")


AGE = Parameter(
    "max_age",
    "Idade máxima",
    Unit.YEARS,
    (value(dt.date(2020, 1, 1), 15), value(dt.date(2024, 1, 1), 10), value(dt.date(2025, 1, 1), None)),
)


def test_value_on_picks_the_latest_start_not_after_the_date() -> None:
    assert AGE.value_on(dt.date(2020, 1, 1), "r").value == 15
    assert AGE.value_on(dt.date(2023, 12, 31), "r").value == 15
    assert AGE.value_on(dt.date(2024, 1, 1), "r").value == 10


def test_before_the_first_value_and_after_a_repeal_there_is_no_value() -> None:
    with pytest.raises(MissingParameterError) as error:
        AGE.value_on(dt.date(2019, 12, 31), "r")
    assert "starts later" in error.value.message
    with pytest.raises(MissingParameterError) as error:
        AGE.value_on(dt.date(2025, 6, 1), "r")
    assert "repealed from 2025-01-01" in error.value.message


def test_with_values_lets_the_override_win_on_the_same_date() -> None:
    reformed = AGE.with_values([value(dt.date(2024, 1, 1), 8), value(dt.date(2022, 1, 1), 12)])
    assert [v.value for v in reformed.values] == [15, 12, 8, None]


def test_values_are_coerced_by_unit() -> None:
    assert coerce_value(5.45, Unit.BRL) == Decimal("5.45")
    ufm = FineUnit("ufm", "UFM", "Unidade Fiscal do Município", "parameter", "ufm", "art8")
    assert coerce_value("0.25", ufm) == Decimal("0.25")
    assert coerce_value("5.56", Unit.PERCENT) == Decimal("5.56")
    assert coerce_value(15, Unit.YEARS) == 15
    assert coerce_value({"1": [2, 8]}, Unit.COUNT) == {"1": (2, 8)}
    with pytest.raises(RegimeDefinitionError):
        coerce_value("quinze", Unit.YEARS)
    with pytest.raises(RegimeDefinitionError):
        coerce_value(1, Unit.BOOLEAN)


def test_ufesp_table_values_and_citations() -> None:
    table = ufesp_parameter()
    assert table.value_on(dt.date(2026, 12, 31), "r").value == Decimal("38.42")
    first = table.value_on(dt.date(2015, 6, 1), "r")
    assert (first.value, first.cite) == (Decimal("21.25"), "sefaz_sp_da_80_14")
    assert comunicado_key("SEFAZ-SP Comunicado DICAR-88/25 (17-12-2025)") == "sefaz_sp_dicar_88_25"


def test_rounding_to_centavos_is_half_up() -> None:
    assert round_brl(Decimal("0.005")) == Decimal("0.01")
    assert round_brl(Decimal("1152.6")) == Decimal("1152.60")
    assert round_brl(Decimal("30") * Decimal("38.42")) == Decimal("1152.60")


def test_config_parsing_errors_name_the_field() -> None:
    with pytest.raises(InvalidFactError) as error:
        Config.from_dict({"parametres": {}})
    assert error.value.field_path == "config.parametres"
    with pytest.raises(InvalidFactError) as error:
        Config.from_dict({"closures": [{"date": "31/10/2025"}]})
    assert error.value.field_path == "config.closures[0].date"
    config = Config.from_dict(
        {"interpretations": {"INT-X-Y": "a"}, "closures": [{"date": "2025-10-31", "name": "Dia do Servidor"}]}
    )
    assert config.to_dict()["closures"] == [{"date": "2025-10-31", "name": "Dia do Servidor"}]


def test_a_configurable_parameter_keeps_the_flag_when_merged() -> None:
    """Each regime's own flags are tested in its folder; here, that merging values never drops the flag."""
    import lawcode
    from lawcode.registry import regime_ids

    configurable = [
        parameter
        for regime_id in regime_ids()
        for parameter in lawcode.get_regime(regime_id).parameters.values()
        if parameter.configurable
    ]
    assert configurable
    for parameter in configurable:
        merged = parameter.with_values([ParameterValue(dt.date(2026, 1, 1), 40, "art1")])
        assert merged.configurable and merged.value_on(dt.date(2026, 2, 1), "r").value == 40


def test_configurable_must_be_a_boolean(tmp_path: object) -> None:
    from pathlib import Path

    from lawcode.params import load_parameters

    path = Path(str(tmp_path)) / "parameters.yaml"
    path.write_text("cap:\n  description: Teto\n  unit: count\n  configurable: sim\n  values: []\n")
    with pytest.raises(RegimeDefinitionError, match="configurable"):
        load_parameters(path, lambda ref, file, line: str(ref))
