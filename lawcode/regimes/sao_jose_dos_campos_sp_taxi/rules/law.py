"""Art. 30 of Lei 8.698/2012 and art. 3º of Lei 9.093/2014: both in force on publication."""

from __future__ import annotations

from typing import Any

from lawcode.context import Context
from lawcode.decision import RuleResult, Status
from lawcode.facts import LawInForceFacts
from lawcode.regime import rule

from .common import CABIN_ACT, CABIN_IN_FORCE, IN_FORCE, br

CABIN_CITES = (f"{CABIN_ACT}:art3", f"{CABIN_ACT}:art1", f"{CABIN_ACT}:art1_parun")


@rule("law_in_force", cites=("art30", *CABIN_CITES))
def law_in_force(ctx: Context, facts: LawInForceFacts) -> RuleResult:
    cabin_from = CABIN_IN_FORCE
    result: dict[str, Any] = {
        "in_force": ctx.as_of >= IN_FORCE,
        "in_force_from": IN_FORCE,
        "cabin_law_in_force_from": cabin_from,
    }
    if ctx.as_of < IN_FORCE:
        finding = ctx.finding(
            "law_in_force",
            Status.NOT_MET,
            f"A Lei 8.698/2012 entra em vigor em {br(IN_FORCE)}, data da publicação",
            cites=("art30",),
            on=IN_FORCE,
        )
        return RuleResult("not_in_force", [finding], result)
    findings = [
        ctx.finding(
            "law_in_force", Status.INFO, f"Lei 8.698/2012 em vigor desde {br(IN_FORCE)}", cites=("art30",)
        )
    ]
    if ctx.as_of >= cabin_from:
        findings.append(
            ctx.finding(
                "cabin_law",
                Status.INFO,
                f"Desde {br(cabin_from)} (Lei 9.093/2014) o táxi pode ter cabine de segurança blindada, "
                "compartimento transparente que isola o motorista dos passageiros; é facultativa",
                cites=CABIN_CITES,
            )
        )
    return RuleResult("in_force", findings, result)
