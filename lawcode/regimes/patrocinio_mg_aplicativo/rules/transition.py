"""Art. 4 §2: drivers who already held a vehicle of up to 15 years may use it until 1 year after entry into force.

"Já possuírem" is read on the day the law took effect (ownership.since ≤ 22/12/2025). The age that must
be ≤ 15 is measured on that day or on the evaluation date (INT-PAT-TRANSITION-AGE-DATE); the last day of the
transition is INT-PAT-TRANSITION-END.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from lawcode.context import Context
from lawcode.decision import Finding, Status
from lawcode.facts import Vehicle

from .common import br
from .vehicle_age import last_day_within, vehicle_age
from .vigencia import in_force_from, transition_last_day

AGE_DATE = "INT-PAT-TRANSITION-AGE-DATE"


@dataclass(frozen=True)
class TransitionCheck:
    """Whether the vehicle qualifies (``eligible``), until when (``last_day``) and the finding to show."""

    eligible: bool
    end: dt.date
    last_day: dt.date
    allowed_today: bool
    finding: Finding


def check_transition(ctx: Context, vehicle: Vehicle, year: int, reading: str) -> TransitionCheck:
    start = in_force_from(ctx)
    end = transition_last_day(ctx)
    ownership = ctx.require(vehicle.ownership, "vehicle.ownership")
    since = ctx.require(ownership.since, "vehicle.ownership.since")
    max_age = int(ctx.param("transition_max_vehicle_age_years"))
    measured_on = start if ctx.interpretation(AGE_DATE) == "entry_into_force" else ctx.as_of
    age = vehicle_age(year, measured_on, reading)
    eligible = since <= start and age <= max_age
    last_day = end if measured_on == start else min(end, last_day_within(year, max_age, reading))
    allowed = eligible and ctx.as_of <= last_day
    message = _message(since, start, age, max_age, measured_on, last_day, eligible, allowed)
    finding = ctx.finding(
        "transition",
        Status.MET if allowed else Status.NOT_MET,
        message,
        cites=("art4_par2",),
        data={"until": last_day, "owned_since": since, "age_checked_on": measured_on},
    )
    return TransitionCheck(eligible, end, last_day, allowed, finding)


def _message(
    since: dt.date,
    start: dt.date,
    age: int,
    max_age: int,
    measured_on: dt.date,
    last_day: dt.date,
    eligible: bool,
    allowed: bool,
) -> str:
    if since > start:
        return (
            f"Transição do art. 4 §2 não se aplica: o condutor passou a ter o veículo em {br(since)}, depois "
            f"da entrada em vigor da lei ({br(start)})."
        )
    if not eligible:
        return (
            f"Transição do art. 4 §2 não se aplica: o veículo tinha {age} anos de uso em {br(measured_on)} "
            f"(máximo {max_age})."
        )
    if allowed:
        return f"Transição do art. 4 §2: veículo do condutor desde {br(since)}, admitido até {br(last_day)}."
    return f"A transição do art. 4 §2 terminou em {br(last_day)}."
