"""Document age windows: a certificate "expedida há no máximo N dias" measured to a reference date.

The law fixes N; which reference date (filing, judgment, the day asked) and whether the issue day counts are
the rule's choice, passed explicitly.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from lawcode.blocks.limits import Bound
from lawcode.calendar import format_date_pt


@dataclass(frozen=True)
class AgeWindow:
    """Whether a document issued on ``issue_date`` is fresh enough on ``reference``."""

    ok: bool
    issue_date: dt.date
    reference: dt.date
    age_days: int
    max_days: int
    fresh_until: dt.date  # last reference day on which it is still accepted

    def describe_pt(self) -> str:
        state = "dentro" if self.ok else "fora"
        return (
            f"emitido em {format_date_pt(self.issue_date)}, {self.age_days} dias antes de "
            f"{format_date_pt(self.reference)}: {state} do limite de {self.max_days} dias "
            f"(aceito até {format_date_pt(self.fresh_until)})"
        )


def issued_within(issue_date: dt.date, reference: dt.date, max_days: int, *, bound: Bound) -> AgeWindow:
    """A document issued at most (INCLUSIVE) or less than (STRICT) ``max_days`` before ``reference``.

    A document dated after the reference (issued later than the filing) is not within the window: the law
    asks for one that existed on the reference date.
    """
    if bound is Bound.STRICT_COMPLETED:
        raise ValueError("a document window is inclusive or strict")
    last = max_days if bound is Bound.INCLUSIVE else max_days - 1
    age = (reference - issue_date).days
    fresh_until = issue_date + dt.timedelta(days=last)
    return AgeWindow(0 <= age <= last, issue_date, reference, age, max_days, fresh_until)
