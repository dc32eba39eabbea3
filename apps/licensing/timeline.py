"""The application's timeline as a picture: events that happened and deadlines ahead or missed.

Pure layout: dates in, SVG coordinates out (the template draws them). A deadline is "overdue" when its day
has passed and it was not met, "due" when it is still ahead, "met" when the step it guards happened.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

WIDTH = 760
MARGIN = 40


@dataclass(frozen=True)
class Mark:
    on: dt.date
    label: str
    status: str  # "event" | "met" | "due" | "overdue" | "today"


@dataclass(frozen=True)
class PlacedMark:
    x: int
    on: dt.date
    label: str
    status: str
    row: int

    @property
    def label_y(self) -> int:
        return 30 + 16 * self.row


@dataclass(frozen=True)
class Deadline:
    on: dt.date
    label: str
    met: bool


def deadline_mark(deadline: Deadline, today: dt.date) -> Mark:
    status = "met" if deadline.met else "overdue" if deadline.on < today else "due"
    return Mark(deadline.on, deadline.label, status)


def layout(events: list[Mark], deadlines: list[Deadline], today: dt.date) -> list[PlacedMark]:
    """Marks placed on one horizontal axis from the first to the last date (today included)."""
    marks = [*events, *(deadline_mark(d, today) for d in deadlines), Mark(today, "Hoje", "today")]
    first = min(m.on for m in marks)
    last = max(m.on for m in marks)
    span = max((last - first).days, 1)
    placed: list[PlacedMark] = []
    for index, mark in enumerate(sorted(marks, key=lambda m: (m.on, m.status != "event"))):
        x = MARGIN + round((mark.on - first).days * (WIDTH - 2 * MARGIN) / span)
        placed.append(PlacedMark(x, mark.on, mark.label, mark.status, row=index % 4))
    return placed
