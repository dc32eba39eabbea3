"""Every error speaks English to logs and Portuguese to users, and says where and what to do."""

from __future__ import annotations

import datetime as dt

from lawcode.errors import (
    DispositivoNotInForceError,
    InvalidFactError,
    LawcodeError,
    LawNotInForceError,
    MissingFactError,
    MissingParameterError,
    RegimeDefinitionError,
    ScenarioError,
    UnknownDispositivoError,
    UnknownParameterError,
)

DAY = dt.date(2026, 3, 1)


def test_specific_errors_have_distinct_portuguese_messages() -> None:
    errors: list[LawcodeError] = [
        UnknownDispositivoError("art99", file="parameters.yaml", line=3),
        DispositivoNotInForceError("lei", "art4A", DAY, "2018-03-20–…"),
        MissingParameterError("exemplo_sp_escolar", "ufm", DAY),
        UnknownParameterError("exemplo_sp_escolar", "max_age"),
        LawNotInForceError("exemplo_sp_escolar", DAY, dt.date(2026, 4, 1), "Lei nº 5.832"),
        MissingFactError("vehicle.manufacture_year", "cenário"),
        InvalidFactError("operator.kind", "'XX' is not one of PF, PJ"),
        ScenarioError("a.yaml", 4, "missing 'as_of'"),
    ]
    for error in errors:
        assert error.message and error.message_pt and error.message != error.message_pt, type(error).__name__
        assert str(error) == error.message


def test_location_prefixes_both_messages() -> None:
    error = RegimeDefinitionError("bad", message_pt="ruim", file="regime.yaml", line=7)
    assert (error.message, error.message_pt) == ("regime.yaml:7: bad", "regime.yaml:7: ruim")
    assert (error.file, error.line) == ("regime.yaml", 7)


def test_missing_parameter_says_what_to_configure() -> None:
    error = MissingParameterError("exemplo_sp_escolar", "ufm", DAY)
    assert "Config.parameters" in error.message and "parameters.yaml" in error.message
    assert "01/03/2026" in error.message_pt and error.field == "ufm"
