"""The closed set of units a legal parameter can have.

A parameter's unit says how to read its number: ``days`` is the law's bare "dias" (how those days count is a
deadline question, see deadlines.py), ``calendar_days`` are "dias corridos", ``business_days`` "dias úteis";
``ufesp``/``ufm`` are fiscal units converted to reais by fiscal.py on a chosen date; ``brl`` is reais.
"""

from __future__ import annotations

from enum import StrEnum

from lawcode.errors import RegimeDefinitionError


class Unit(StrEnum):
    """Unit of a parameter value; ``label_pt`` is how users read it."""

    YEARS = "years"
    DAYS = "days"
    CALENDAR_DAYS = "calendar_days"
    BUSINESS_DAYS = "business_days"
    HOURS = "hours"
    MONTHS = "months"
    UFESP = "ufesp"
    UFM = "ufm"
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
        return self in (Unit.UFESP, Unit.UFM, Unit.BRL)

    @property
    def is_fiscal_unit(self) -> bool:
        """True for units that fiscal.py converts to reais."""
        return self in (Unit.UFESP, Unit.UFM)

    @classmethod
    def parse(cls, text: object, *, file: str | None = None, line: int | None = None) -> Unit:
        """The unit named ``text``; raises RegimeDefinitionError listing the closed set otherwise."""
        for unit in cls:
            if unit.value == text:
                return unit
        allowed = ", ".join(u.value for u in cls)
        raise RegimeDefinitionError(
            f"unknown unit {text!r}; use one of: {allowed}",
            message_pt=f"unidade desconhecida {text!r}; use uma de: {allowed}",
            file=file,
            line=line,
        )


_LABELS_PT: dict[Unit, str] = {
    Unit.YEARS: "anos",
    Unit.DAYS: "dias",
    Unit.CALENDAR_DAYS: "dias corridos",
    Unit.BUSINESS_DAYS: "dias úteis",
    Unit.HOURS: "horas",
    Unit.MONTHS: "meses",
    Unit.UFESP: "UFESP",
    Unit.UFM: "UFM",
    Unit.BRL: "reais",
    Unit.COUNT: "unidades",
    Unit.PERCENT: "%",
    Unit.BOOLEAN: "sim/não",
    Unit.DATE: "data",
}
