"""Recidivism: which prior final decisions make a new infraction a repeat offence.

Laws differ on four points, each an explicit argument:
- scope: "reincidência específica" (the same infraction) or any infraction;
- window: none, or N months;
- anchor: the window runs from the prior *infraction* or from the prior decision becoming *final*;
- count_from: a fixed window from the FIRST offence of the series, or a window renewed by each offence (from
  the LAST).
A prior counts only if it became final before the new infraction (a decision not yet final proves nothing),
compared strictly by the legal instants when both are known (the prior's ``final_at`` against the new
infraction's instant ``at``), otherwise strictly by day (a prior final on the infraction's day does not count,
for nothing shows which came first). ``Recidivism.describe_pt`` says which instant decided each prior.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from lawcode.deadlines import MonthRounding, add_months
from lawcode.facts import PriorSanction


class Scope(Enum):
    SPECIFIC = "specific"  # same infraction code
    GENERIC = "generic"  # any infraction


class Anchor(Enum):
    PRIOR_INFRACTION = "prior_infraction"
    PRIOR_FINAL = "prior_final"


class CountFrom(Enum):
    FIRST = "first"  # each prior counts if its own window still covers the new infraction
    LAST = "last"  # the window renews with each offence: a chain, each within the window of the next


@dataclass(frozen=True)
class RecidivismRule:
    scope: Scope
    window_months: int | None
    anchor: Anchor
    count_from: CountFrom
    same_codes: frozenset[str] = frozenset()  # codes treated as the same infraction besides equal codes


@dataclass(frozen=True)
class Ordering:
    """How a prior was placed before or after the new infraction: by the instants, or by the days."""

    prior: PriorSanction
    counted: bool
    by_instant: bool

    def describe_pt(self, on: dt.date, at: dt.datetime | None) -> str:
        final = self.prior.final_at if self.by_instant else None
        if final is not None and at is not None:
            order = "antes" if self.counted else "depois"
            return (
                f"decisão de {self.prior.infraction_date:%d/%m/%Y} definitiva em {final:%d/%m/%Y %H:%M}, "
                f"{order} do instante da nova infração ({at:%d/%m/%Y %H:%M})"
            )
        if self.prior.final_on == on:
            return (
                f"decisão de {self.prior.infraction_date:%d/%m/%Y} definitiva no mesmo dia da nova infração "
                f"({on:%d/%m/%Y}), sem o instante de uma delas: não conta"
            )
        order = "antes" if self.counted else "depois"
        return (
            f"decisão de {self.prior.infraction_date:%d/%m/%Y} definitiva em {self.prior.final_on:%d/%m/%Y}, "
            f"{order} do dia da nova infração ({on:%d/%m/%Y})"
        )


@dataclass(frozen=True)
class Recidivism:
    priors: tuple[PriorSanction, ...]  # the priors that count, oldest first
    ordering: tuple[Ordering, ...] = ()
    """Each prior of the scope weighed against the new infraction's instant, when an instant was involved."""
    on: dt.date | None = None
    at: dt.datetime | None = None

    @property
    def is_recidivism(self) -> bool:
        return bool(self.priors)

    @property
    def count(self) -> int:
        return len(self.priors)

    def describe_pt(self) -> str:
        """The recidivism in one line; when a prior was placed by an instant, or left out for being final on
        the infraction's own day, which instant decided."""
        order = f" — {self.ordering_pt(self.on, self.at)}" if self.ordering and self.on is not None else ""
        if not self.priors:
            return "sem infração anterior que configure reincidência" + order
        dates = ", ".join(p.infraction_date.strftime("%d/%m/%Y") for p in self.priors)
        return f"reincidência: {self.count} infração(ões) anterior(es) considerada(s) ({dates})" + order

    def ordering_pt(self, on: dt.date | None = None, at: dt.datetime | None = None) -> str:
        """Which instant (or day) placed each weighed prior before or after the new infraction ("" if none)."""
        day = on or self.on
        if day is None:
            return ""
        return "; ".join(item.describe_pt(day, at or self.at) for item in self.ordering)


def final_before(prior: PriorSanction, on: dt.date, at: dt.datetime | None) -> Ordering:
    """Whether ``prior`` was final before the new infraction: by instants when both are known, else by days
    (strictly: the same day without instants does not count)."""
    if prior.final_at is not None and at is not None:
        return Ordering(prior, prior.final_at < at, by_instant=True)
    return Ordering(prior, prior.final_on < on, by_instant=False)


def recidivism(
    history: Iterable[PriorSanction],
    code: str,
    on: dt.date,
    rule: RecidivismRule,
    *,
    at: dt.datetime | None = None,
) -> Recidivism:
    """The priors in ``history`` that make infraction ``code`` committed on ``on`` (at the instant ``at``, when
    known) a recidivism under ``rule``."""
    weighed = [final_before(p, on, at) for p in history if _in_scope(p, code, rule)]
    ordering = tuple(item for item in weighed if item.by_instant or item.prior.final_on == on)
    candidates = sorted(
        (item.prior for item in weighed if item.counted),
        key=lambda p: (_anchor(p, rule), p.infraction_date),
    )
    if rule.window_months is None:
        return Recidivism(tuple(candidates), ordering, on, at)
    months = rule.window_months
    if rule.count_from is CountFrom.FIRST:
        return Recidivism(
            tuple(p for p in candidates if on <= _window_end(p, months, rule)), ordering, on, at
        )
    chain: list[PriorSanction] = []
    reference = on
    for prior in reversed(candidates):
        if reference > _window_end(prior, months, rule):
            break  # a gap longer than the window ends the series
        chain.append(prior)
        reference = _anchor(prior, rule)
    return Recidivism(tuple(reversed(chain)), ordering, on, at)


def _in_scope(prior: PriorSanction, code: str, rule: RecidivismRule) -> bool:
    if rule.scope is Scope.GENERIC:
        return True
    return prior.infraction_code == code or {prior.infraction_code, code} <= rule.same_codes


def _anchor(prior: PriorSanction, rule: RecidivismRule) -> dt.date:
    return prior.final_on if rule.anchor is Anchor.PRIOR_FINAL else prior.infraction_date


def _window_end(prior: PriorSanction, months: int, rule: RecidivismRule) -> dt.date:
    """Last day the prior's window covers (date to date, Lei 9.784 art. 66 §3)."""
    return add_months(_anchor(prior, rule), months, rounding=MonthRounding.LAST_DAY_OF_MONTH)
