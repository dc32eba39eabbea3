"""Values in UFM converted to reais (art. 8: taxa de vistoria de 0,25 UFM).

Patrocínio's UFM value is unknown (docs/domain/facts.md §1.2): ``ufm`` is declared with no values, so a
conversion raises MissingParameterError until the municipality configures it. Which date values the unit is
INT-PAT-UFM-DATE.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import RuleResult, Status, format_decimal_pt, format_value_pt
from lawcode.facts import FineFacts
from lawcode.regime import rule

from .common import br

UFM_DATE = "INT-PAT-UFM-DATE"


@rule("fine_amount", cites=("art8",))
def fine_amount(ctx: Context, facts: FineFacts) -> RuleResult:
    # Another unit than reais or UFM is refused before the rule runs (units.yaml declares only the UFM).
    if facts.unit == "brl":
        brl = ctx.to_brl(facts.quantity, "brl", facts.infraction_date)
        finding = ctx.finding(
            "amount", Status.INFO, f"Valor já em reais: {format_value_pt(brl, 'brl')}.", cites=("art8",)
        )
        return RuleResult("computed", [finding], {"brl": brl, "unit_value": None, "valued_on": None})
    on = _valuation_date(ctx, facts)
    brl = ctx.to_brl(facts.quantity, "ufm", on)
    unit_value = ctx.param_on("ufm", on)
    finding = ctx.finding(
        "amount",
        Status.INFO,
        f"{format_decimal_pt(facts.quantity)} UFM × {format_value_pt(unit_value, 'brl')} (UFM vigente em "
        f"{br(on)}) = {format_value_pt(brl, 'brl')}.",
        cites=("art8",),
    )
    return RuleResult("computed", [finding], {"brl": brl, "unit_value": unit_value, "valued_on": on})


def _valuation_date(ctx: Context, facts: FineFacts) -> dt.date:
    if ctx.interpretation(UFM_DATE) == "guide_issue_date":
        return ctx.require(facts.guide_issue_date, "guide_issue_date")
    return facts.infraction_date
