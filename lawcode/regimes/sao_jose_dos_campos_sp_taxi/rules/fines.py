"""Art. 22 § 2º: the fines' amounts are the law's nominal amounts of 2012, updated every 1st January by the
index the municipality applies to its other tax debts.

The amount for a valuation date is the nominal amount times the accumulated yearly updates from 2013 to the
valuation year, each year's percentage a configured value of ``fine_update_percent`` dated 1st January of that
year. A missing year is a MissingParameterError naming it: the engine never reuses the previous year's index.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from lawcode.context import Context
from lawcode.decision import format_decimal_pt
from lawcode.errors import MissingParameterError
from lawcode.fiscal import round_brl

from .common import IN_FORCE

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
    factor = Decimal(1)
    steps: list[str] = []
    for year in range(IN_FORCE.year + 1, valued_on.year + 1):
        percent = _percent(ctx, year)
        factor *= 1 + percent / 100
        steps.append(f"{year}: {format_decimal_pt(percent)}%")
    return Reindexed(nominal, round_brl(nominal * factor), factor, valued_on, tuple(steps))


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
