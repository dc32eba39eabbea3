"""Values in UFM converted to reais (art. 8: taxa de vistoria de 0,25 UFM).

Patrocínio's UFM value is unknown (docs/domain/facts.md §1.2): ``ufm`` is declared with no values, so a
conversion raises MissingParameterError until the municipality configures it. Which date values the unit is
INT-PAT-UFM-DATE.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import RuleResult, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import FineFacts
from lawcode.regime import rule
from lawcode.units import Unit

from .common import br

UFM_DATE = "INT-PAT-UFM-DATE"


@rule("fine_amount", cites=("art8",))
def fine_amount(ctx: Context, facts: FineFacts) -> RuleResult:
    if facts.unit == "ufesp":
        raise InvalidFactError("unit", "Patrocínio-MG values amounts in UFM (art. 8), not in UFESP")
    if facts.unit == "brl":
        brl = ctx.to_brl(facts.quantity, Unit.BRL, facts.infraction_date)
        finding = ctx.finding("amount", Status.INFO, f"Valor já em reais: R$ {brl}.", cites=("art8",))
        return RuleResult("computed", [finding], {"brl": brl, "unit_value": None, "valued_on": None})
    on = _valuation_date(ctx, facts)
    brl = ctx.to_brl(facts.quantity, Unit.UFM, on)
    unit_value = ctx.param_on("ufm", on)
    finding = ctx.finding(
        "amount",
        Status.INFO,
        f"{facts.quantity} UFM × R$ {unit_value} (UFM vigente em {br(on)}) = R$ {brl}.",
        cites=("art8",),
    )
    return RuleResult("computed", [finding], {"brl": brl, "unit_value": unit_value, "valued_on": on})


def _valuation_date(ctx: Context, facts: FineFacts) -> dt.date:
    if ctx.interpretation(UFM_DATE) == "guide_issue_date":
        return ctx.require(facts.guide_issue_date, "guide_issue_date")
    return facts.infraction_date
