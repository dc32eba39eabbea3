"""Procedure rules of the Votuporanga regime checked over many inputs: inspection calendar and service class."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lawcode.errors import InvalidFactError
from lawcode.regime import Regime
from lawcode.regimes.votuporanga_sp_escolar.rules.inspection import CALENDAR, final_digit
from lawcode.regimes.votuporanga_sp_escolar.rules.service import within_daytime, within_night
from lawcode.registry import get_regime


def test_the_calendar_table_pairs_months_six_apart_for_every_digit() -> None:
    assert sorted(CALENDAR) == list(range(10))
    for first, second, _ in CALENDAR.values():
        assert 2 <= first <= 6 and second == first + 6


@pytest.mark.parametrize("plate", ["ABC1234", "ABC1C34", "abc1d24", " ABC1D24 "])
def test_the_final_digit_is_the_last_character_in_both_formats(plate: str) -> None:
    assert final_digit(plate) == 4


def test_a_plate_ending_in_a_letter_is_rejected() -> None:
    with pytest.raises(InvalidFactError):
        final_digit("ABC123A")


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=0, max_value=9),
    st.dates(min_value=dt.date(2016, 1, 1), max_value=dt.date(2030, 12, 31)),
)
def test_an_inspection_in_the_cycle_month_is_never_overdue(digit: int, on: dt.date) -> None:
    regime: Regime = get_regime("votuporanga_sp_escolar")
    first = regime.evaluate("inspection_calendar", {"plate": f"ABC1D2{digit}"}, as_of=on).result
    year, month = (int(part) for part in first["cycle_month"].split("-"))
    inspected = dt.date(year, month, 15)
    facts = {"plate": f"ABC1D2{digit}", "last_inspection": inspected}
    done = regime.evaluate("inspection_calendar", facts, as_of=max(on, inspected)).result
    assert done["status"] == "ok"
    assert first["status"] in ("due", "overdue")


@settings(max_examples=200, deadline=None)
@given(st.times(), st.times())
def test_no_trip_is_both_daytime_and_night_unless_it_touches_a_boundary(start: dt.time, end: dt.time) -> None:
    if within_daytime(start, end) and within_night(start, end):
        assert start in (dt.time(6, 0), dt.time(23, 0)) or end in (dt.time(6, 0), dt.time(23, 0))
