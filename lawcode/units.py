"""Units: the engine's measures (days, years, counts…, reais) and the fine units a regime declares.

A parameter's unit says how to read its number: ``days`` is the law's bare "dias" (how those days count is a
deadline question, see deadlines.py), ``calendar_days`` are "dias corridos", ``business_days`` "dias úteis";
``brl`` is reais at face value. Every other unit of money — a fiscal unit (UFESP, UFM), reais re-indexed
yearly by an index (INPC, IPCA), multiples of a tariff set by decree — is declared by the regime in
``units.yaml`` and valued on a date by dated parameters::

    units:
      ufesp:
        label: UFESP
        name: Unidade Fiscal do Estado de São Paulo
        valued_by: parameter          # one unit is worth the parameter's value (in reais) on the date
        parameter: ufesp              # a parameter with unit brl (the engine's table for UFESP)
        per_calendar_year: true       # optional: a value holds only within its calendar year
        cite: art30_incVII
      brl_inpc:
        label: reais corrigidos pelo INPC
        name: Reais de 2012 reajustados anualmente pelo INPC
        valued_by: index              # reais at ``base``, re-indexed by each percentage dated after it
        parameter: fine_reindex_inpc  # a parameter with unit percent: each dated value is one yearly reajuste
        base: 2012-06-01
        per_calendar_year: true       # optional: one reajuste every 1st January, needed from that day on
        cite: art60

fiscal.py turns a quantity of a declared unit into reais (centavos, ROUND_HALF_UP) through ``ctx.to_brl``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from lawcode.errors import RegimeDefinitionError


class Unit(StrEnum):
    """A measure of a parameter value (the closed set of the engine); ``label_pt`` is how users read it.

    Money other than plain reais is a regime-declared FineUnit (below), never a member of this set.
    """

    YEARS = "years"
    DAYS = "days"
    CALENDAR_DAYS = "calendar_days"
    BUSINESS_DAYS = "business_days"
    HOURS = "hours"
    MONTHS = "months"
    BRL = "brl"
    COUNT = "count"
    PERCENT = "percent"
    BOOLEAN = "boolean"
    DATE = "date"

    @property
    def label_pt(self) -> str:
        return _LABELS_PT[self]

    @property
    def is_money(self) -> bool:
        """True for units whose values are amounts of money (kept as Decimal)."""
        return self is Unit.BRL

    @classmethod
    def parse(
        cls,
        text: object,
        *,
        money: Mapping[str, FineUnit] | None = None,
        file: str | None = None,
        line: int | None = None,
    ) -> Unit | FineUnit:
        """The measure or the declared fine unit (``money``) named ``text``; RegimeDefinitionError otherwise."""
        for unit in cls:
            if unit.value == text:
                return unit
        if money is not None and isinstance(text, str) and text in money:
            return money[text]
        allowed = ", ".join([u.value for u in cls] + list(money or {}))
        raise RegimeDefinitionError(
            f"unknown unit {text!r}; use one of: {allowed} (fine units are declared in units.yaml)",
            message_pt=f"unidade desconhecida {text!r}; use uma de: {allowed} (unidades de multa: units.yaml)",
            file=file,
            line=line,
        )


VALUATIONS = ("parameter", "index")


@dataclass(frozen=True)
class FineUnit:
    """A regime-declared unit of money, valued in reais on a date by a dated parameter.

    ``valued_by`` ``parameter``: one unit is worth the parameter's value (unit brl) on the date; ``index``:
    reais at ``base`` re-indexed by every percentage (unit percent) dated after ``base`` up to the date.
    Quacks like ``Unit`` (``value``, ``label_pt``, ``is_money``) so a parameter may be counted in it.
    """

    key: str
    label: str
    name: str
    valued_by: str
    parameter: str
    cite: str
    base: dt.date | None = None
    per_calendar_year: bool = False
    source: str = ""

    @property
    def value(self) -> str:
        return self.key

    @property
    def label_pt(self) -> str:
        return self.label

    @property
    def is_money(self) -> bool:
        return True


AnyUnit = Unit | FineUnit


_LABELS_PT: dict[Unit, str] = {
    Unit.YEARS: "anos",
    Unit.DAYS: "dias",
    Unit.CALENDAR_DAYS: "dias corridos",
    Unit.BUSINESS_DAYS: "dias úteis",
    Unit.HOURS: "horas",
    Unit.MONTHS: "meses",
    Unit.BRL: "reais",
    Unit.COUNT: "unidades",
    Unit.PERCENT: "%",
    Unit.BOOLEAN: "sim/não",
    Unit.DATE: "data",
}
