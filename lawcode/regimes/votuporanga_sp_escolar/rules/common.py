"""Helpers shared by the Votuporanga rules: the two wordings of the law, dates, names and documents.

Nothing here decides a question; each helper returns a value a rule puts together into findings.
"""

from __future__ import annotations

import datetime as dt
import unicodedata

from lawcode.calendar import format_date_pt
from lawcode.context import Context
from lawcode.deadlines import DayCounting, MonthRounding, add_months, in_force_after_vacatio
from lawcode.facts import Document, Operator

# Lei 5.722/2015 was published and took effect on 22/12/2015 (art. 22).
PUBLISHED_ON = dt.date(2015, 12, 22)
# Lei 6.151/2018 was published on 20/03/2018; when its wording took effect is INT-VOT-AMENDMENT-IN-FORCE.
AMENDMENT_PUBLISHED_ON = dt.date(2018, 3, 20)
AMENDMENT_KEY = "lei6151_2018"
LINDB_VACATIO_DAYS = 45
MUNICIPALITY = "votuporanga"


def br(day: dt.date) -> str:
    """Date as users read it: 22/12/2015."""
    return format_date_pt(day)


def fine_valuation_date(
    ctx: Context,
    *,
    infraction_date: dt.date,
    auto_date: dt.date | None,
    decided_final_on: dt.date | None,
    guide_issue_date: dt.date | None,
) -> dt.date:
    """The one date whose UFM values a fine (INT-VOT-UFM-VALUATION-DATE), read the same way by the sanction and
    by ``fine_amount``, so the amount fixed at finality and the amount charged on the guide never disagree:
    the infraction's date; the final decision's (the auto's when no final decision is given: "o que estiver
    informado"); or the guide's issue (the day of the question when there is no guide yet)."""
    option = ctx.interpretation("INT-VOT-UFM-VALUATION-DATE")
    if option == "decision_date":
        return decided_final_on if decided_final_on is not None else ctx.require(auto_date, "auto_date")
    if option == "payment_date":
        return guide_issue_date or ctx.as_of
    return infraction_date


def amendment_in_force_from(ctx: Context) -> dt.date:
    """First day of Lei 6.151/2018's wording, by INT-VOT-AMENDMENT-IN-FORCE."""
    if ctx.interpretation("INT-VOT-AMENDMENT-IN-FORCE") == "lindb_45_days":
        return in_force_after_vacatio(AMENDMENT_PUBLISHED_ON, LINDB_VACATIO_DAYS)
    return AMENDMENT_PUBLISHED_ON


def amended(ctx: Context) -> bool:
    """True when the wording given by Lei 6.151/2018 governs ``as_of``."""
    return ctx.as_of >= amendment_in_force_from(ctx)


def wording_date(ctx: Context) -> dt.date:
    """The date whose wording the engine resolves citations on.

    ``as_of`` itself, except while a later reading (LINDB's 45 days) keeps the original wording in force after
    the publication of Lei 6.151: then the last day of the original wording, so citations name that version.
    """
    if not amended(ctx) and ctx.as_of >= AMENDMENT_PUBLISHED_ON:
        return AMENDMENT_PUBLISHED_ON - dt.timedelta(days=1)
    return ctx.as_of


def is_votuporanga(name: str | None) -> bool:
    """Compare municipality names without accents, case or a "/SP" suffix."""
    if name is None:
        return False
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return plain.split("/")[0].split(" - ")[0].strip() == MUNICIPALITY


def completed_years(since: dt.date, on: dt.date) -> int:
    """Whole years from ``since`` to ``on`` (the anniversary counts on the same month and day)."""
    before_anniversary = (on.month, on.day) < (since.month, since.day)
    return on.year - since.year - (1 if before_anniversary else 0)


def months_later(start: dt.date, months: int) -> dt.date:
    """``start`` plus ``months`` date to date; a missing day becomes the month's last (Lei 9.784 art. 66 §3)."""
    return add_months(start, months, rounding=MonthRounding.LAST_DAY_OF_MONTH)


def day_counting(ctx: Context) -> tuple[DayCounting, bool]:
    """Counting and extension to the next business day of the law's plain "dias", by INT-VOT-DAY-COUNTING."""
    option = ctx.interpretation("INT-VOT-DAY-COUNTING")
    if option == "business_days":
        return DayCounting.BUSINESS, True
    return DayCounting.CALENDAR, option == "calendar_extend"


def is_current(document: Document | None, on: dt.date) -> bool:
    """A document presented, not declared invalid, and not expired on ``on``."""
    if document is None or document.valid is False:
        return False
    return document.expiry_date is None or document.expiry_date >= on


def document_status_pt(document: Document | None, on: dt.date) -> str:
    """Why a document is or is not current, in Portuguese."""
    if document is None:
        return "não apresentado"
    if document.valid is False:
        return "apresentado, mas inválido ou positivo"
    if document.expiry_date is not None and document.expiry_date < on:
        return f"vencido em {br(document.expiry_date)}"
    return "válido" if document.expiry_date is None else f"válido até {br(document.expiry_date)}"


def operator_document(operator: Operator, kind: str) -> Document | None:
    """The operator's latest document of ``kind``: the PF's own, or the PJ's (then its representative's)."""
    holder = operator.person if operator.kind == "PF" else operator.company
    found = holder.document(kind) if holder is not None else None
    if found is None and operator.person is not None:
        found = operator.person.document(kind)
    return found
