"""The two readings of art. 4 §1 (INT-PAT-VEHICLE-AGE), checked as properties over many dates."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lawcode.errors import InvalidFactError

from ..rules.vehicle_age import CALENDAR_YEARS, FULL_YEARS, earliest_year_within, last_day_within, vehicle_age

READINGS = st.sampled_from([CALENDAR_YEARS, FULL_YEARS])
DATES = st.dates(min_value=dt.date(2025, 12, 22), max_value=dt.date(2060, 12, 31))


@given(year=st.integers(1990, 2025), max_age=st.integers(1, 20), reading=READINGS)
def test_last_day_within_is_the_boundary_of_the_age(year: int, max_age: int, reading: str) -> None:
    last = last_day_within(year, max_age, reading)
    assert vehicle_age(year, last, reading) == max_age
    assert vehicle_age(year, last + dt.timedelta(days=1), reading) == max_age + 1


@given(year=st.integers(1990, 2025), on=DATES)
def test_counting_from_year_end_is_never_older(year: int, on: dt.date) -> None:
    assert 0 <= vehicle_age(year, on, FULL_YEARS) <= vehicle_age(year, on, CALENDAR_YEARS)


@given(on=DATES, max_age=st.integers(1, 20), reading=READINGS)
def test_earliest_year_is_the_oldest_within_the_limit(on: dt.date, max_age: int, reading: str) -> None:
    year = earliest_year_within(on, max_age, reading)
    assert vehicle_age(year, on, reading) <= max_age < vehicle_age(year - 1, on, reading)


@pytest.mark.parametrize(
    ("on", "calendar", "full"),
    [
        (dt.date(2025, 12, 30), 10, 9),
        (dt.date(2025, 12, 31), 10, 10),
        (dt.date(2026, 1, 1), 11, 10),
        (dt.date(2026, 12, 30), 11, 10),
        (dt.date(2026, 12, 31), 11, 11),
    ],
)
def test_a_2015_vehicle_around_the_year_boundary(on: dt.date, calendar: int, full: int) -> None:
    assert vehicle_age(2015, on, CALENDAR_YEARS) == calendar
    assert vehicle_age(2015, on, FULL_YEARS) == full


def test_a_vehicle_from_the_future_is_invalid() -> None:
    with pytest.raises(InvalidFactError):
        vehicle_age(2027, dt.date(2026, 6, 1), CALENDAR_YEARS)
