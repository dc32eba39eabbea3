"""Penalties: ladders, sanctions chosen out of sequence, fine ranges, the first-offence minimum and doubling.

- A *ladder* (advertência → multa → suspensão → cassação) gives the next step after the highest one already
  imposed.
- Sanctions "aplicadas separada ou cumulativamente … independente da sequência" leave the choice to the judging
  authority: ``choose`` validates the kinds it chose against those the law allows.
- A fine *range* ("multa de R$ 77,24 a R$ 386,21") is applied at its minimum on a first offence when the law says
  so; within the range otherwise (the authority's amount, checked); doubled on recidivism when the law says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Generic, TypeVar

from lawcode.decision import format_value_pt

StepT = TypeVar("StepT")


@dataclass(frozen=True)
class Ladder(Generic[StepT]):
    """Penalty steps in order; position 0 applies when nothing counts yet."""

    steps: tuple[StepT, ...]

    def next_after(self, highest_rank: int) -> StepT:
        """The step after the highest one already imposed (rank 0 = none); the last step repeats."""
        if highest_rank < 0:
            raise ValueError("a rank is not negative")
        return self.steps[min(highest_rank, len(self.steps) - 1)]


class SanctionChoiceError(ValueError):
    """The judging authority chose a sanction the law does not allow, or none."""


def choose(chosen: Iterable[str], allowed: Sequence[str], *, cumulative: bool) -> tuple[str, ...]:
    """The kinds the authority chose, in the law's order; refused if any is not allowed, none is chosen, or
    more than one is chosen where the law does not allow cumulation."""
    picked = tuple(dict.fromkeys(chosen))
    unknown = [kind for kind in picked if kind not in allowed]
    if unknown:
        raise SanctionChoiceError(f"not allowed: {', '.join(unknown)}; allowed: {', '.join(allowed)}")
    if not picked:
        raise SanctionChoiceError("no sanction chosen")
    if len(picked) > 1 and not cumulative:
        raise SanctionChoiceError("the law does not allow cumulative sanctions")
    return tuple(kind for kind in allowed if kind in picked)


@dataclass(frozen=True)
class FineRange:
    minimum: Decimal
    maximum: Decimal
    unit: str  # a fine unit name ("brl", "ufesp", …)

    def __post_init__(self) -> None:
        if self.minimum > self.maximum:
            raise ValueError("a fine range's minimum exceeds its maximum")

    def contains(self, amount: Decimal) -> bool:
        return self.minimum <= amount <= self.maximum

    def scaled(self, factor: Decimal) -> FineRange:
        """The range with both ends multiplied (re-indexing, doubling)."""
        return FineRange(self.minimum * factor, self.maximum * factor, self.unit)

    def describe_pt(self) -> str:
        return f"de {format_value_pt(self.minimum, self.unit)} a {format_value_pt(self.maximum, self.unit)}"


@dataclass(frozen=True)
class Fine:
    """The fine to impose: its base amount, the multiplier recidivism applies (1 = none), and why."""

    base: Decimal
    multiplier: Decimal
    unit: str
    fixed_by_law: (
        bool  # True when the law fixes the amount (first-offence minimum); False = authority's choice
    )

    @property
    def doubled(self) -> bool:
        return self.multiplier != 1

    @property
    def amount(self) -> Decimal:
        return self.base * self.multiplier


def range_fine(
    fine_range: FineRange,
    *,
    first_offence: bool,
    first_offence_at_minimum: bool,
    chosen: Decimal | None,
    multiplier: Decimal,
) -> Fine:
    """The fine within ``fine_range``: the minimum on a first offence when the law fixes it so; otherwise the
    authority's ``chosen`` amount (None → the minimum, the least the law allows, until the authority fixes it).

    A chosen amount outside the range raises ValueError; ``multiplier`` multiplies the amount (2 = "em dobro"
    on recidivism, 1 = none).
    """
    if chosen is not None and not fine_range.contains(chosen):
        raise ValueError(f"{chosen} is outside the range {fine_range.minimum}–{fine_range.maximum}")
    if multiplier < 1:
        raise ValueError("a recidivism multiplier is at least 1")
    if first_offence and first_offence_at_minimum:
        return Fine(fine_range.minimum, multiplier, fine_range.unit, fixed_by_law=True)
    base = fine_range.minimum if chosen is None else chosen
    return Fine(base, multiplier, fine_range.unit, fixed_by_law=False)
