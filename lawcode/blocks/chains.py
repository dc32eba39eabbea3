"""Chains of deadlines: each step counted from the end of the previous (or from the day its act actually
happened), and an overall ceiling counted from the opening ("concluído no prazo máximo de 90 dias").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lawcode.calendar import LegalCalendar, format_date_pt
from lawcode.deadlines import DayCounting, Deadline, count_days


@dataclass(frozen=True)
class ChainStep:
    """One link: ``days`` days for ``key`` (label in Portuguese), counted from the previous link's end."""

    key: str
    label_pt: str
    days: int


@dataclass(frozen=True)
class ChainLink:
    key: str
    label_pt: str
    deadline: Deadline
    acted_on: dt.date | None  # when the act actually happened (then the next link counts from it)

    @property
    def late(self) -> bool:
        return self.acted_on is not None and not self.deadline.is_timely(self.acted_on)


@dataclass(frozen=True)
class Chain:
    opened_on: dt.date
    links: tuple[ChainLink, ...]
    ceiling: Deadline | None

    @property
    def last_end(self) -> dt.date:
        return self.links[-1].deadline.end

    @property
    def exceeds_ceiling(self) -> bool:
        """True when the chain's planned end falls after the ceiling."""
        return self.ceiling is not None and self.last_end > self.ceiling.end

    def link(self, key: str) -> ChainLink:
        for item in self.links:
            if item.key == key:
                return item
        raise KeyError(key)

    def describe_pt(self) -> str:
        parts = [f"{x.label_pt}: até {format_date_pt(x.deadline.end)}" for x in self.links]
        if self.ceiling is not None:
            parts.append(f"conclusão até {format_date_pt(self.ceiling.end)}")
        return "; ".join(parts)


def chain(
    opened_on: dt.date,
    steps: Sequence[ChainStep],
    *,
    acted: Mapping[str, dt.date],
    counting: DayCounting,
    calendar: LegalCalendar,
    extend_to_business_day: bool,
    ceiling_days: int | None,
) -> Chain:
    """Count ``steps`` one after the other from ``opened_on``; a step whose act is in ``acted`` makes the next
    count from that date. The ceiling counts ``ceiling_days`` calendar days from the opening, never extended:
    it bounds the whole proceeding, not an act of the party."""
    if not steps:
        raise ValueError("a chain has at least one step")
    links: list[ChainLink] = []
    start = opened_on
    for step in steps:
        deadline = count_days(
            start,
            step.days,
            counting=counting,
            calendar=calendar,
            extend_to_business_day=extend_to_business_day,
        )
        acted_on = acted.get(step.key)
        links.append(ChainLink(step.key, step.label_pt, deadline, acted_on))
        start = acted_on if acted_on is not None else deadline.end
    ceiling = None
    if ceiling_days is not None:
        ceiling = count_days(
            opened_on,
            ceiling_days,
            counting=DayCounting.CALENDAR,
            calendar=calendar,
            extend_to_business_day=False,
        )
    return Chain(opened_on, tuple(links), ceiling)
