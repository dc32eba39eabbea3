"""Art. 22 § 2º: the fines are the law's nominal reais of 2012 (unit ``brl_sjc``, units.yaml), updated every
1st January by the index the municipality applies to its other tax debts.

The engine values the unit (ctx.to_brl: nominal × Π(1 + p/100) of the yearly percentages after the base); this
module first checks that every 1st January from 2013 to the valuation year has its percentage configured, since
the law updates the fines *every* year: a missing year is a MissingParameterError naming it, never a silently
smaller amount.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from lawcode.context import Context
from lawcode.decision import format_decimal_pt
from lawcode.errors import MissingParameterError

from .common import IN_FORCE

FINE_UNIT = "brl_sjc"
FINE_UPDATE_CITES = ("art22_par2",)


@dataclass(frozen=True)
class Reindexed:
    nominal: Decimal
    brl: Decimal
    factor: Decimal
    valued_on: dt.date
    steps: tuple[str, ...]

    def describe_pt(self) -> str:
        if not self.steps:
            return "valor nominal da lei (sem atualização anual até esta data)"
        return "atualizado em 1º de janeiro: " + "; ".join(self.steps)


def reindexed(ctx: Context, nominal: Decimal, valued_on: dt.date) -> Reindexed:
    """``nominal`` (R$ of 2012) updated every 1st January up to ``valued_on``'s year."""
    steps = tuple(
        f"{year}: {format_decimal_pt(_percent(ctx, year))}%"
        for year in range(IN_FORCE.year + 1, valued_on.year + 1)
    )
    unit = ctx.regime.vocabulary.fine_unit(FINE_UNIT)
    assert unit is not None  # declared in units.yaml (the regime would not load otherwise)
    factor = ctx.unit_value(unit, valued_on)
    return Reindexed(nominal, ctx.to_brl(nominal, FINE_UNIT, valued_on), factor, valued_on, steps)


def _percent(ctx: Context, year: int) -> Decimal:
    january = dt.date(year, 1, 1)
    try:
        value = ctx.param_value("fine_update_percent", january)
    except MissingParameterError:
        raise _missing(ctx, january) from None
    if value.effective_from != january:
        raise _missing(ctx, january)
    return Decimal(value.value)


def _missing(ctx: Context, january: dt.date) -> MissingParameterError:
    return MissingParameterError(
        ctx.regime.id,
        "fine_update_percent",
        january,
        reason=f"the yearly update of the fines for {january.year} is not configured (art. 22 § 2º: a value "
        f"dated {january.isoformat()} with the index the municipality applied to its tax debts)",
    )
