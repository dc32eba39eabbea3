"""Service class (art. 2º): regular = within the urban perimeter AND between 06h00 and 23h00; special = beyond
the perimeter AND between 23h00 and 06h00. Mixed trips (urban at night, rural by day) fit neither literal
definition: INT-VOT-SERVICE-CLASS decides.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import RuleResult, Status
from lawcode.facts import TripFacts
from lawcode.regime import rule

DAY_STARTS = dt.time(6, 0)
NIGHT_STARTS = dt.time(23, 0)
CLASS_PT = {"regular": "regular", "special": "especial", "unclassified": "sem classificação"}


def within_daytime(start: dt.time, end: dt.time) -> bool:
    """The whole trip between 06h00 and 23h00 (limits included), not crossing midnight."""
    return start <= end and start >= DAY_STARTS and end <= NIGHT_STARTS


def within_night(start: dt.time, end: dt.time) -> bool:
    """The whole trip between 23h00 and 06h00 (limits included), possibly crossing midnight."""
    if end < start:  # crosses midnight
        return start >= NIGHT_STARTS and end <= DAY_STARTS
    return start >= NIGHT_STARTS or end <= DAY_STARTS


@rule("service_class", cites=("art2", "art2_incI", "art2_incII"))
def service_class(ctx: Context, facts: TripFacts) -> RuleResult:
    urban = facts.within_urban_perimeter
    times = f"{facts.start_time:%H:%M}–{facts.end_time:%H:%M}"
    where = "no perímetro urbano" if urban else "além do perímetro urbano"
    if urban and within_daytime(facts.start_time, facts.end_time):
        finding = ctx.finding(
            "service_class", Status.INFO, f"Serviço regular: {where}, das {times}", cites=("art2_incI",)
        )
        return RuleResult("computed", [finding], {"service_class": "regular"})
    if not urban and within_night(facts.start_time, facts.end_time):
        finding = ctx.finding(
            "service_class", Status.INFO, f"Serviço especial: {where}, das {times}", cites=("art2_incII",)
        )
        return RuleResult("computed", [finding], {"service_class": "special"})
    return _mixed(ctx, where, times)


def _mixed(ctx: Context, where: str, times: str) -> RuleResult:
    if ctx.interpretation("INT-VOT-SERVICE-CLASS") == "residual_special":
        finding = ctx.finding(
            "service_class",
            Status.INFO,
            f"Serviço especial por exclusão: {where}, das {times}, "
            "não se restringe às condições do serviço regular",
            cites=("art2", "art2_incI"),
        )
        return RuleResult("computed", [finding], {"service_class": "special"})
    finding = ctx.finding(
        "service_class",
        Status.WARNING,
        f"Sem classificação: {where}, das {times}, não cumpre as duas condições de nenhuma classe do art. 2º",
        cites=("art2_incI", "art2_incII"),
    )
    return RuleResult("computed", [finding], {"service_class": "unclassified"})
