"""Helpers shared by the Patrocínio rules: dates, day and year counting, documents, municipality names.

Nothing here decides a question. Every deadline helper states its counting explicitly: "dias" are
calendar days counted by Lei 9.784/1999 art. 66 (the law has no procedure of its own), and whether an end on
a day without office hours moves forward is INT-PAT-DAYS-EXTENSION; years run date to date with the
missing 29 February rounded to the month's last day (art. 66 §3).
"""

from __future__ import annotations

import datetime as dt
import unicodedata

from lawcode.calendar import format_date_pt
from lawcode.context import Context
from lawcode.deadlines import DayCounting, Deadline, MonthRounding, count_days, count_years
from lawcode.decision import Finding, RuleResult, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import Document

DAYS_EXTENSION = "INT-PAT-DAYS-EXTENSION"
# Every citation a deadline computed here may carry (rules that use the helpers declare them).
DEADLINE_CITES = ("lei9784:art66", "lei9784:art66_par1", "lei9784:art66_par2", "lei9784:art66_par3")


def br(day: dt.date) -> str:
    """Date as users read it: 22/12/2025."""
    return format_date_pt(day)


def plain_name(name: str) -> str:
    """Lower case without accents or a "/MG" suffix: "Patrocínio/MG" → "patrocinio"."""
    ascii_only = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return ascii_only.split("/")[0].split(" - ")[0].strip().lower()


def is_home_municipality(ctx: Context, name: str) -> bool:
    return plain_name(name) == plain_name(ctx.regime.municipality)


def days_deadline(ctx: Context, start: dt.date, parameter: str, *, multiplier: int = 1) -> Deadline:
    """A deadline of the parameter's "dias", as calendar days, extended or not by INT-PAT-DAYS-EXTENSION."""
    days = int(ctx.param(parameter)) * multiplier
    extend = ctx.interpretation(DAYS_EXTENSION) == "extend_to_business_day"
    return count_days(
        start, days, counting=DayCounting.CALENDAR, calendar=ctx.calendar, extend_to_business_day=extend
    )


def years_later(ctx: Context, start: dt.date, years: int) -> Deadline:
    """``start`` plus whole years, date to date (Lei 9.784 art. 66 §3); a validity, never extended."""
    return count_years(
        start,
        years,
        rounding=MonthRounding.LAST_DAY_OF_MONTH,
        calendar=ctx.calendar,
        extend_to_business_day=False,
    )


def is_usable(document: Document | None, on: dt.date) -> bool:
    """Presented, not marked invalid, already issued and not expired on ``on``."""
    if document is None or document.valid is False:
        return False
    if document.issue_date is not None and document.issue_date > on:
        return False
    return document.expiry_date is None or document.expiry_date >= on


def within(issued: dt.date, on: dt.date, last_day: dt.date) -> bool:
    """``on`` falls between the issue date and the last accepted day (a document dated later does not exist yet)."""
    return issued <= on <= last_day


def require_issue_date(ctx: Context, document: Document, field_path: str) -> dt.date:
    return ctx.require(document.issue_date, f"{field_path}.issue_date")


def detail_flag(ctx: Context, document: Document, key: str, field_path: str) -> bool:
    """A yes/no detail of a document that a rule cannot do without (MissingFactError when absent)."""
    value = ctx.require(document.details.get(key), f"{field_path}.details.{key}")
    if not isinstance(value, bool):
        raise InvalidFactError(f"{field_path}.details.{key}", f"expected true or false, got {value!r}")
    return value


def check(
    ctx: Context,
    code: str,
    ok: bool,
    message: str,
    *,
    cites: tuple[str, ...],
    counterfactual: str | None = None,
) -> Finding:
    """A met / not-met finding; the counterfactual is shown only when the requirement is not met."""
    return ctx.finding(
        code,
        Status.MET if ok else Status.NOT_MET,
        message,
        cites=cites,
        counterfactual=None if ok else counterfactual,
    )


def with_cure_window(ctx: Context, decision: RuleResult) -> RuleResult:
    """A refusal opens the 15-day cure window of art. 7 parágrafo único, counted from the refusal (as_of)."""
    if decision.outcome != "denied":
        return decision
    deadline = days_deadline(ctx, ctx.as_of, "cure_deadline_days")
    decision.findings.append(
        ctx.finding(
            "cure_window",
            Status.INFO,
            f"Pedido indeferido em {br(ctx.as_of)}: a pendência pode ser sanada até {br(deadline.end)}, sob pena de "
            "arquivamento do pedido e perda das taxas recolhidas.",
            cites=("art7_parun", *deadline.citations),
        )
    )
    decision.result["cure_until"] = deadline.end
    return decision
