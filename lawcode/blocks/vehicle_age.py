"""A vehicle's age by the law's counting mode, and the last year it may serve.

"no máximo 10 anos a contar do ano de sua fabricação": a vehicle made in 2016 is 10 years old in 2026 counting
the difference of years, but already in its 11th year if the year of manufacture counts as the first. The rule
passes the mode its interpretation chose.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class AgeCounting(Enum):
    YEAR_DIFFERENCE = "year_difference"  # age = year asked − year of manufacture
    MANUFACTURE_YEAR_COUNTS = "manufacture_year_counts"  # the year of manufacture is year 1


@dataclass(frozen=True)
class VehicleAge:
    ok: bool
    age: int
    max_years: int
    last_year: int  # last calendar year the vehicle may serve
    earliest_allowed_year: int  # oldest year of manufacture accepted in the year asked

    def describe_pt(self, manufacture_year: int) -> str:
        return (
            f"veículo fabricado em {manufacture_year}: {self.age} anos (máximo {self.max_years}; "
            f"pode servir até {self.last_year})"
        )


def vehicle_age(manufacture_year: int, year: int, max_years: int, *, counting: AgeCounting) -> VehicleAge:
    """The age in ``year`` and whether it is within ``max_years`` (inclusive, as "no máximo")."""
    extra = 1 if counting is AgeCounting.MANUFACTURE_YEAR_COUNTS else 0
    age = year - manufacture_year + extra
    last_year = manufacture_year + max_years - extra
    return VehicleAge(age <= max_years, age, max_years, last_year, year - max_years + extra)
