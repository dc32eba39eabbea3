"""Points on a record, summed over a rolling window ("20 pontos em 12 meses")."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from lawcode.blocks.limits import Bound, at_least
from lawcode.deadlines import MonthRounding, add_months


@dataclass(frozen=True)
class PointsTotal:
    total: int
    window_start: dt.date  # first day counted
    on: dt.date
    counted: tuple[tuple[dt.date, int], ...]

    def reached(self, limit: int, *, bound: Bound) -> bool:
        """Whether the total reaches the limit ("atingir 20 pontos": INCLUSIVE; "mais de 20": STRICT)."""
        return at_least(self.total, limit, bound=bound)


def points_in_window(events: Iterable[tuple[dt.date, int]], on: dt.date, months: int) -> PointsTotal:
    """Points of ``events`` (date, points) dated after ``on`` minus ``months`` months and up to ``on``.

    The window is date to date (Lei 9.784 art. 66 §3): on 15/03/2026 a 12-month window counts from 16/03/2025.
    """
    if months <= 0:
        raise ValueError("a window has at least one month")
    start = add_months(on, -months, rounding=MonthRounding.LAST_DAY_OF_MONTH) + dt.timedelta(days=1)
    counted = tuple(sorted((d, p) for d, p in events if start <= d <= on))
    return PointsTotal(sum(p for _, p in counted), start, on, counted)
