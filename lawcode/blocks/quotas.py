"""Quotas: how many permits a person or company may hold, and caps derived from population or students.

``within(cap, in_use)`` is the one check (adding one more must not exceed the cap); the other functions only
compute a cap the way a law states it: "1 veículo para cada 1.563 habitantes" plus fixed extras, "1 veículo por
N alunos matriculados". How a fraction rounds is the caller's explicit choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from enum import Enum


class Rounding(Enum):
    DOWN = "down"  # a fraction of the divisor does not earn a unit ("para cada N")
    UP = "up"  # a fraction earns a whole unit ("um veículo por fração de N alunos")


@dataclass(frozen=True)
class Quota:
    """A cap, how many are in use, and whether ``adding`` more fit."""

    cap: int
    in_use: int
    adding: int

    @property
    def ok(self) -> bool:
        return self.in_use + self.adding <= self.cap

    @property
    def remaining(self) -> int:
        return max(self.cap - self.in_use, 0)

    def describe_pt(self, what: str) -> str:
        return f"{what}: {self.in_use} em uso, limite {self.cap} ({self.remaining} disponível(is))"


def within(cap: int, in_use: int, *, adding: int = 1) -> Quota:
    """Whether ``adding`` more fit under ``cap`` with ``in_use`` already counted (per person, per company…)."""
    if cap < 0 or in_use < 0 or adding < 0:
        raise ValueError("caps and counts are not negative")
    return Quota(cap, in_use, adding)


@dataclass(frozen=True)
class PopulationCap:
    population: int
    inhabitants_per_unit: int
    base: int
    extras: int

    @property
    def cap(self) -> int:
        return self.base + self.extras

    def describe_pt(self) -> str:
        extras = f" + {self.extras}" if self.extras else ""
        return (
            f"{self.population:,} habitantes ÷ {self.inhabitants_per_unit:,} = {self.base}{extras} "
            f"= limite de {self.cap}"
        ).replace(",", ".")


def per_population(
    population: int, inhabitants_per_unit: int, *, extras: int, rounding: Rounding
) -> PopulationCap:
    """Cap of one unit per ``inhabitants_per_unit`` inhabitants, plus ``extras`` granted apart from the ratio."""
    base = _divide(population, inhabitants_per_unit, rounding)
    return PopulationCap(population, inhabitants_per_unit, base, extras)


def per_students(students: int, students_per_unit: int, *, rounding: Rounding) -> int:
    """Units allowed for ``students`` enrolled at one per ``students_per_unit``."""
    return _divide(students, students_per_unit, rounding)


def share(total: int, percent: Decimal, *, rounding: Rounding) -> int:
    """``percent`` % of ``total`` as a whole count ("10% do número de associados")."""
    value = Decimal(total) * percent / 100
    return int(value.to_integral_value(ROUND_FLOOR if rounding is Rounding.DOWN else ROUND_CEILING))


def _divide(amount: int, divisor: int, rounding: Rounding) -> int:
    if divisor <= 0 or amount < 0:
        raise ValueError("the divisor is positive and the amount not negative")
    whole, rest = divmod(amount, divisor)
    return whole + (1 if rest and rounding is Rounding.UP else 0)
