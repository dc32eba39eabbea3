"""Recidivism: which prior final decisions make a new infraction a repeat offence.

Laws differ on four points, each an explicit argument:
- scope: "reincidência específica" (the same infraction) or any infraction;
- window: none, or N months;
- anchor: the window runs from the prior *infraction* or from the prior decision becoming *final*;
- count_from: a fixed window from the FIRST offence of the series, or a window renewed by each offence (from
  the LAST).
A prior counts only if it became final before the new infraction (a decision not yet final proves nothing).
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
class Recidivism:
    priors: tuple[PriorSanction, ...]  # the priors that count, oldest first

    @property
    def is_recidivism(self) -> bool:
        return bool(self.priors)

    @property
    def count(self) -> int:
        return len(self.priors)

    def describe_pt(self) -> str:
        if not self.priors:
            return "sem infração anterior que configure reincidência"
        dates = ", ".join(p.infraction_date.strftime("%d/%m/%Y") for p in self.priors)
        return f"reincidência: {self.count} infração(ões) anterior(es) considerada(s) ({dates})"


def recidivism(history: Iterable[PriorSanction], code: str, on: dt.date, rule: RecidivismRule) -> Recidivism:
    """The priors in ``history`` that make infraction ``code`` committed on ``on`` a recidivism under ``rule``."""
    candidates = sorted(
        (p for p in history if p.final_on < on and _in_scope(p, code, rule)),
        key=lambda p: (_anchor(p, rule), p.infraction_date),
    )
    if rule.window_months is None:
        return Recidivism(tuple(candidates))
    months = rule.window_months
    if rule.count_from is CountFrom.FIRST:
        return Recidivism(tuple(p for p in candidates if on <= _window_end(p, months, rule)))
    chain: list[PriorSanction] = []
    reference = on
    for prior in reversed(candidates):
        if reference > _window_end(prior, months, rule):
            break  # a gap longer than the window ends the series
        chain.append(prior)
        reference = _anchor(prior, rule)
    return Recidivism(tuple(reversed(chain)))


def _in_scope(prior: PriorSanction, code: str, rule: RecidivismRule) -> bool:
    if rule.scope is Scope.GENERIC:
        return True
    return prior.infraction_code == code or {prior.infraction_code, code} <= rule.same_codes


def _anchor(prior: PriorSanction, rule: RecidivismRule) -> dt.date:
    return prior.final_on if rule.anchor is Anchor.PRIOR_FINAL else prior.infraction_date


def _window_end(prior: PriorSanction, months: int, rule: RecidivismRule) -> dt.date:
    """Last day the prior's window covers (date to date, Lei 9.784 art. 66 §3)."""
    return add_months(_anchor(prior, rule), months, rounding=MonthRounding.LAST_DAY_OF_MONTH)
