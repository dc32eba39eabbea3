"""Limits on ages, years of licence and counts, with the bound the law's words set.

"idade superior a 18 anos", "maior de 21 anos", "no mínimo 4 portas", "no máximo 10 anos": the same number
is met on different days depending on whether the bound is inclusive ("no mínimo", "a partir de") or strict
("superior a", "mais de"), and, for ages, whether "superior a 18 anos" is met the day after the 18th birthday or
only at 19 completed years. ``Bound`` names the three readings; the rule passes the one its interpretation chose.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from lawcode.calendar import format_date_pt


class Bound(Enum):
    """How a limit of N is met."""

    INCLUSIVE = "inclusive"  # N itself meets it ("no mínimo N", "a partir de N anos", "até N")
    STRICT = "strict"  # only beyond N ("superior a N", "mais de N", "menos de N")
    STRICT_COMPLETED = "strict_completed"  # ages: N + 1 completed years ("superior a 18" read as "19 feitos")


def completed_years(since: dt.date, on: dt.date) -> int:
    """Whole years from ``since`` to ``on``; the anniversary counts on the same month and day.

    Someone born on 29 February completes a year on 1 March in common years (Código Civil art. 132 §3's
    "next day" reading of a missing day).
    """
    before_anniversary = (on.month, on.day) < (since.month, since.day)
    return on.year - since.year - (1 if before_anniversary else 0)


def anniversary(since: dt.date, years: int) -> dt.date:
    """The day ``years`` whole years after ``since`` are completed (29/02 → 01/03 in a common year)."""
    try:
        return since.replace(year=since.year + years)
    except ValueError:
        return dt.date(since.year + years, 3, 1)


@dataclass(frozen=True)
class DateLimit:
    """A limit measured in years since a date (age from birth, licence held since first issue)."""

    ok: bool
    years: int  # completed years on the day asked
    limit: int
    bound: Bound
    met_from: dt.date  # first day the limit is met

    def describe_pt(self, what: str) -> str:
        """ "idade de 18 anos completos; exigido mais de 18 anos (atendido a partir de 19/05/2026)"."""
        return (
            f"{what}: {self.years} anos completos; exigido {_bound_pt(self.bound, self.limit)} "
            f"(atendido a partir de {format_date_pt(self.met_from)})"
        )


def minimum_years(since: dt.date, on: dt.date, limit: int, *, bound: Bound) -> DateLimit:
    """Whether at least (or more than) ``limit`` years have passed from ``since`` to ``on``.

    INCLUSIVE: met on the ``limit``-th anniversary. STRICT: met the day after it (more than N years lived).
    STRICT_COMPLETED: met on the ``limit + 1``-th anniversary (more than N completed years).
    """
    if bound is Bound.INCLUSIVE:
        met_from = anniversary(since, limit)
    elif bound is Bound.STRICT:
        met_from = anniversary(since, limit) + dt.timedelta(days=1)
    else:
        met_from = anniversary(since, limit + 1)
    return DateLimit(on >= met_from, completed_years(since, on), limit, bound, met_from)


def _bound_pt(bound: Bound, limit: int) -> str:
    if bound is Bound.INCLUSIVE:
        return f"no mínimo {limit} anos"
    if bound is Bound.STRICT:
        return f"mais de {limit} anos"
    return f"mais de {limit} anos completos (ao menos {limit + 1})"


Number = int | Decimal


def at_most(actual: Number, limit: Number, *, bound: Bound) -> bool:
    """``actual`` within a maximum: ``≤ limit`` (INCLUSIVE) or ``< limit`` (STRICT)."""
    _no_completed(bound)
    return actual <= limit if bound is Bound.INCLUSIVE else actual < limit


def at_least(actual: Number, limit: Number, *, bound: Bound) -> bool:
    """``actual`` meets a minimum: ``≥ limit`` (INCLUSIVE) or ``> limit`` (STRICT)."""
    _no_completed(bound)
    return actual >= limit if bound is Bound.INCLUSIVE else actual > limit


def _no_completed(bound: Bound) -> None:
    if bound is Bound.STRICT_COMPLETED:
        raise ValueError("STRICT_COMPLETED applies to years since a date (minimum_years), not to counts")
