"""Suspensions: days accumulated over a period, and a new suspension scheduled after those still running."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Period:
    """A suspension period, both ends included."""

    start: dt.date
    end: dt.date

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError("a period ends on or after its start")

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


def period_of(start: dt.date, days: int) -> Period:
    """``days`` days from ``start``, both ends included."""
    if days <= 0:
        raise ValueError("a suspension lasts at least one day")
    return Period(start, start + dt.timedelta(days=days - 1))


def cumulative_days(periods: Iterable[Period], *, since: dt.date, until: dt.date) -> int:
    """Days suspended between ``since`` and ``until`` (inclusive); overlapping periods count each day once."""
    days: set[dt.date] = set()
    for period in periods:
        first, last = max(period.start, since), min(period.end, until)
        days.update(first + dt.timedelta(days=i) for i in range((last - first).days + 1))
    return len(days)


def schedule_after(running: Iterable[Period], start: dt.date, days: int) -> Period:
    """A new suspension of ``days`` from ``start``, or from the day after the last running one ends if later:
    suspensions are served one after the other, never at the same time."""
    latest_end = max((p.end for p in running if p.end >= start), default=None)
    begin = start if latest_end is None else latest_end + dt.timedelta(days=1)
    return period_of(begin, days)
