"""The yearly vistoria, in the same period as the permit's renewal (art. 12 parágrafo único): the month the
plate's final digit gives (art. 6º). Missing it is the infraction of art. 23, XI.

After a vistoria, the next is due by the end of the plate's month of the following year (or the next such
month, under INT-SJC-FIRST-RENEWAL, the same reading as the permit's renewal).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status
from lawcode.facts import InspectionFacts
from lawcode.regime import rule

from .common import br, final_digit, month_end, month_pt, renewal_due, renewal_month

INSPECTION_CITES = ("art6", "art12", "art12_parun", "art23_incXI")


@rule("inspection_calendar", cites=INSPECTION_CITES)
def inspection_calendar(ctx: Context, facts: InspectionFacts) -> RuleResult:
    plate = ctx.require(facts.plate, "plate")
    month = renewal_month(ctx, plate)
    year = facts.year or ctx.as_of.year
    findings = [
        ctx.finding(
            "inspection_month",
            Status.INFO,
            f"Placa final {final_digit(plate)}: vistoria anual e renovação do alvará em {month_pt(month)}",
            cites=("art6", "art12_parun"),
        )
    ]
    if facts.last_inspection is not None:
        due = renewal_due(ctx, facts.last_inspection, month)
    else:
        due = month_end(year, month) if ctx.as_of <= month_end(year, month) else month_end(year + 1, month)
    result: dict[str, Any] = {
        "final_digit": final_digit(plate),
        "due_month": month,
        "next_due": due,
        "next_due_month": f"{due.year:04d}-{due.month:02d}",
    }
    findings.append(_status(ctx, facts, due, result))
    return RuleResult("computed", findings, result)


def _status(ctx: Context, facts: InspectionFacts, due: dt.date, result: dict[str, Any]) -> Finding:
    if ctx.as_of > due:
        result["status"] = "overdue"
        return ctx.finding(
            "inspection_status",
            Status.NOT_MET,
            f"Vistoria vencida em {br(due)}: deixar de apresentar o veículo à vistoria periódica é infração "
            "(art. 23, XI)",
            cites=("art12_parun", "art23_incXI"),
            counterfactual=f"não haveria infração com a vistoria feita até {br(due)}",
        )
    running = (ctx.as_of.year, ctx.as_of.month) == (due.year, due.month)
    result["status"] = "due" if running else "ok"
    last = f"última em {br(facts.last_inspection)}; " if facts.last_inspection else ""
    return ctx.finding(
        "inspection_status",
        Status.INFO if running else Status.MET,
        f"Vistoria: {last}próxima até {br(due)}",
        cites=("art12", "art12_parun"),
    )
