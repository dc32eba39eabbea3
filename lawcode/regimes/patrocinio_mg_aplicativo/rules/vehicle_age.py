"""Vehicle age under art. 4 II a and §1, in the two readings of INT-PAT-VEHICLE-AGE.

§1: "calculada ano a ano, considerando-se para tanto, o encerramento do ano de fabricação em 31 de dezembro".

- ``calendar_year_difference``: age = year of the date − year of manufacture (one more year each 1 January).
- ``full_years_since_year_end``: whole years counted date to date from 31 December of the manufacture year.

Pure functions of (manufacture year, date, reading): the rules record the interpretation and cite.
"""

from __future__ import annotations

import datetime as dt

from lawcode.errors import InvalidFactError

VEHICLE_AGE = "INT-PAT-VEHICLE-AGE"
CALENDAR_YEARS = "calendar_year_difference"
FULL_YEARS = "full_years_since_year_end"


def vehicle_age(manufacture_year: int, on: dt.date, reading: str) -> int:
    """Age in years on ``on``; 0 during the year of manufacture under both readings."""
    if manufacture_year > on.year:
        raise InvalidFactError(
            "vehicle.manufacture_year",
            f"year {manufacture_year} is after the date evaluated ({on.isoformat()})",
        )
    if reading == CALENDAR_YEARS:
        return on.year - manufacture_year
    _check(reading)
    before_year_end = (on.month, on.day) < (12, 31)
    return max(on.year - manufacture_year - (1 if before_year_end else 0), 0)


def last_day_within(manufacture_year: int, max_age: int, reading: str) -> dt.date:
    """Last day on which the vehicle is at most ``max_age`` years old."""
    if reading == CALENDAR_YEARS:
        return dt.date(manufacture_year + max_age, 12, 31)
    _check(reading)
    # Age max_age + 1 is reached on 31/12 of manufacture_year + max_age + 1.
    return dt.date(manufacture_year + max_age + 1, 12, 30)


def earliest_year_within(on: dt.date, max_age: int, reading: str) -> int:
    """Oldest manufacture year still within ``max_age`` on ``on`` (for the counterfactual)."""
    year = on.year - max_age - 1
    while vehicle_age(year, on, reading) > max_age:
        year += 1
    return year


def _check(reading: str) -> None:
    if reading != FULL_YEARS:
        raise InvalidFactError(VEHICLE_AGE, f"unknown vehicle-age reading {reading!r}")
