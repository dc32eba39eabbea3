"""Entry into force (art. 26), the art. 4 §2 transition and the ``law_in_force`` question.

The entry into force is computed, not copied: publication + the vacatio parameter, counted by LC 95/1998
art. 8 §1 (publication day and last day included; in force the next day). regime.yaml repeats the date only
because the core refuses evaluations before it; tests/test_regime_metadata.py keeps both equal.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.deadlines import Deadline, vacatio_period
from lawcode.decision import Finding, RuleResult, Status
from lawcode.facts import LawInForceFacts
from lawcode.regime import rule

from .common import br, years_later

TRANSITION_END = "INT-PAT-TRANSITION-END"


def published_on(ctx: Context) -> dt.date:
    return ctx.require(ctx.regime.published, "regime.yaml acts[0].published")


def vacatio(ctx: Context) -> Deadline:
    published = published_on(ctx)
    return vacatio_period(published, int(ctx.param_on("vacatio_legis_days", published)))


def in_force_from(ctx: Context) -> dt.date:
    """First day of force: the day after the vacatio's last day (22/12/2025)."""
    return vacatio(ctx).end + dt.timedelta(days=1)


def transition_last_day(ctx: Context) -> dt.date:
    """Last day of art. 4 §2 ("até 1 (um) ano após a entrada em vigor"), per INT-PAT-TRANSITION-END."""
    start = in_force_from(ctx)
    anniversary = years_later(ctx, start, int(ctx.param_on("transition_period_years", start))).end
    if ctx.interpretation(TRANSITION_END) == "anniversary_inclusive":
        return anniversary
    return anniversary - dt.timedelta(days=1)


@rule("law_in_force", cites=("art26", "lc95:art8_par1", "art4_par2"))
def law_in_force(ctx: Context, facts: LawInForceFacts) -> RuleResult:
    period = vacatio(ctx)
    start = period.end + dt.timedelta(days=1)
    transition_end = transition_last_day(ctx)
    in_force = ctx.as_of >= start
    findings = [_vigencia_finding(ctx, period, start, in_force)]
    transitions = []
    if in_force and ctx.as_of <= transition_end:
        transitions.append({"dispositivo": "art4_par2", "until": transition_end})
        findings.append(_transition_finding(ctx, transition_end))
    result = {
        "published_on": period.start,
        "published": ctx.as_of >= period.start,
        "vacatio_last_day": period.end,
        "in_force_from": start,
        "transition_until": transition_end,
        "transitions": transitions,
        "steps": list(period.steps),
    }
    return RuleResult("in_force" if in_force else "not_in_force", findings, result)


def _vigencia_finding(ctx: Context, period: Deadline, start: dt.date, in_force: bool) -> Finding:
    steps = "; ".join(period.steps)
    if in_force:
        message = f"A Lei 5.832/2025 está em vigor desde {br(start)} ({steps})."
    else:
        message = (
            f"A Lei 5.832/2025 ainda não está em vigor em {br(ctx.as_of)}; entra em vigor em {br(start)} "
            f"({steps})."
        )
    return ctx.finding(
        "vigencia", Status.INFO, message, cites=("art26", "lc95:art8_par1"), data={"in_force_from": start}
    )


def _transition_finding(ctx: Context, transition_end: dt.date) -> Finding:
    return ctx.finding(
        "transition_art4_par2",
        Status.INFO,
        "Transição em curso: condutores que já possuíam veículo de até 15 anos de uso podem utilizá-lo "
        f"até {br(transition_end)}.",
        cites=("art4_par2",),
        data={"until": transition_end},
    )
