"""Properties of the deadline arithmetic over many generated dates (hypothesis)."""

from __future__ import annotations

import calendar as stdlib_calendar
import datetime as dt

from dateutil.easter import easter  # type: ignore[import-untyped,unused-ignore]
from hypothesis import given, settings
from hypothesis import strategies as st

from lawcode.calendar import Closure, LegalCalendar, MunicipalHoliday, easter_sunday
from lawcode.deadlines import (
    DayCounting,
    MonthRounding,
    add_hours,
    count_days,
    count_months,
    days_between,
    edital_deemed_notice,
    in_force_after_vacatio,
)

CITY = LegalCalendar(
    "SP",
    municipal_holidays=(
        MunicipalHoliday(name="Aniversário", month=3, day=2),
        MunicipalHoliday(name="Padroeiro", month=6, day=24),
        MunicipalHoliday(name="Sexta-feira Santa", easter_offset=-2),
    ),
    closures=(
        Closure(on=dt.date(2026, 10, 30), name="Ponto facultativo"),
        Closure(on=dt.date(2026, 12, 24), name="Véspera de Natal", early_closing=True),
    ),
    include_optional_holidays=True,
)
dates = st.dates(min_value=dt.date(2015, 1, 1), max_value=dt.date(2035, 12, 31))
lengths = st.integers(min_value=1, max_value=400)
countings = st.sampled_from(list(DayCounting))
roundings = st.sampled_from(list(MonthRounding))


@given(dates, lengths, countings, st.booleans())
def test_end_is_after_start(start: dt.date, n: int, counting: DayCounting, extend: bool) -> None:
    deadline = count_days(start, n, counting=counting, calendar=CITY, extend_to_business_day=extend)
    assert deadline.end > deadline.start == start
    assert deadline.steps and deadline.citations


@given(dates, lengths, st.booleans())
def test_business_end_is_a_business_day_and_counts_back_to_n(start: dt.date, n: int, extend: bool) -> None:
    deadline = count_days(
        start, n, counting=DayCounting.BUSINESS, calendar=CITY, extend_to_business_day=extend
    )
    assert CITY.is_business_day(deadline.end)
    if not extend:
        assert days_between(start, deadline.end, counting=DayCounting.BUSINESS, calendar=CITY) == n


@given(dates, lengths)
def test_calendar_days_without_extension_are_exactly_start_plus_n(start: dt.date, n: int) -> None:
    deadline = count_days(
        start, n, counting=DayCounting.CALENDAR, calendar=CITY, extend_to_business_day=False
    )
    assert deadline.end == start + dt.timedelta(days=n)
    assert days_between(start, deadline.end, counting=DayCounting.CALENDAR, calendar=CITY) == n


@given(dates, lengths, countings)
def test_extension_lands_on_the_first_day_a_deadline_can_end(
    start: dt.date, n: int, counting: DayCounting
) -> None:
    plain = count_days(start, n, counting=counting, calendar=CITY, extend_to_business_day=False).end
    extended = count_days(start, n, counting=counting, calendar=CITY, extend_to_business_day=True).end
    assert CITY.can_end_deadline(extended)
    assert extended >= plain
    gap = [plain + dt.timedelta(days=offset) for offset in range((extended - plain).days)]
    assert all(not CITY.can_end_deadline(day) for day in gap)


@given(dates, st.integers(min_value=1, max_value=120), roundings)
def test_months_end_on_the_matching_day_or_per_rounding(
    start: dt.date, n: int, rounding: MonthRounding
) -> None:
    end = count_months(start, n, rounding=rounding, calendar=CITY, extend_to_business_day=False).end
    year, month = divmod(start.month - 1 + n, 12)
    year, month = start.year + year, month + 1
    last_day = stdlib_calendar.monthrange(year, month)[1]
    if start.day <= last_day:
        assert end == dt.date(year, month, start.day)
    elif rounding is MonthRounding.LAST_DAY_OF_MONTH:
        assert end == dt.date(year, month, last_day)
    else:
        assert end == dt.date(year, month, last_day) + dt.timedelta(days=1)


@given(dates, st.integers(min_value=1, max_value=120))
def test_the_two_roundings_differ_by_at_most_one_day(start: dt.date, n: int) -> None:
    last = count_months(
        start, n, rounding=MonthRounding.LAST_DAY_OF_MONTH, calendar=CITY, extend_to_business_day=False
    )
    nxt = count_months(start, n, rounding=MonthRounding.NEXT_DAY, calendar=CITY, extend_to_business_day=False)
    assert (nxt.end - last.end).days in (0, 1)


@given(
    st.datetimes(min_value=dt.datetime(2015, 1, 1), max_value=dt.datetime(2035, 12, 31)), st.integers(1, 30)
)
def test_whole_days_of_hours_keep_the_clock_time(start: dt.datetime, whole_days: int) -> None:
    assert add_hours(start, 24 * whole_days) == start + dt.timedelta(days=whole_days)


@given(dates, st.integers(min_value=1, max_value=365))
def test_vacatio_in_force_day_counts_publication_day_as_day_one(published: dt.date, n: int) -> None:
    in_force = in_force_after_vacatio(published, n)
    assert (in_force - published).days == n


@given(dates, st.integers(min_value=1, max_value=30))
def test_edital_in_calendar_days_is_never_extended(published: dt.date, n: int) -> None:
    deemed = edital_deemed_notice(published, n, counting=DayCounting.CALENDAR, calendar=CITY)
    assert deemed == published + dt.timedelta(days=n)


@settings(max_examples=300)
@given(st.integers(min_value=1583, max_value=4099))
def test_easter_matches_dateutil(year: int) -> None:
    assert easter_sunday(year) == easter(year)
