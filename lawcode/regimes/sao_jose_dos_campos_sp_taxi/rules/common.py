"""Helpers shared by the São José dos Campos rules: dates, names, documents, the plate's renewal month.

Nothing here decides a question; each helper returns a value a rule puts into findings.
"""

from __future__ import annotations

import calendar as stdlib_calendar
import datetime as dt
import unicodedata

from lawcode.calendar import format_date_pt
from lawcode.context import Context
from lawcode.deadlines import DayCounting
from lawcode.errors import InvalidFactError
from lawcode.facts import Document

# Lei 8.698/2012 took effect on publication (art. 30); the capture dates it 18/05/2012.
IN_FORCE = dt.date(2012, 5, 18)
CABIN_ACT = "sjc-9093-2014"
# Lei 9.093/2014 took effect on publication (art. 3º), in the Boletim do Município of 28/02/2014.
CABIN_IN_FORCE = dt.date(2014, 2, 28)
MUNICIPALITY = "sao jose dos campos"
MONTHS_PT = (
    "janeiro", "fevereiro", "março", "abril", "maio", "junho",
    "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
)  # fmt: skip


def br(day: dt.date) -> str:
    """Date as users read it: 18/05/2012."""
    return format_date_pt(day)


def is_sjc(name: str | None) -> bool:
    """Compare municipality names without accents, case, hyphens or a "/SP" suffix."""
    if name is None:
        return False
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return plain.split("/")[0].split(" - ")[0].replace("-", " ").strip() == MUNICIPALITY


def day_counting(ctx: Context) -> tuple[DayCounting, bool]:
    """Counting and extension to the next business day of the law's "dias", by INT-SJC-DAY-COUNTING."""
    option = ctx.interpretation("INT-SJC-DAY-COUNTING")
    if option == "business_days":
        return DayCounting.BUSINESS, True
    return DayCounting.CALENDAR, option == "calendar_extend"


def final_digit(plate: str) -> int:
    """The plate's last character, a digit in the old (ABC1234) and Mercosul (ABC1D23) formats."""
    text = plate.strip()
    if not text or not text[-1].isdigit():
        raise InvalidFactError("plate", f"plate {plate!r} must end in a digit (ABC1234 or ABC1D23)")
    return int(text[-1])


def renewal_month(ctx: Context, plate: str) -> int:
    """Art. 6º: the month (1–5) the alvará and the vistoria are renewed, by the plate's final digit."""
    table = ctx.param("renewal_month_by_final_digit")
    return int(table[final_digit(plate)])


def month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, stdlib_calendar.monthrange(year, month)[1])


def renewal_due(ctx: Context, issued: dt.date, month: int) -> dt.date:
    """Last day of the renewal month that ends a permit issued on ``issued`` (INT-SJC-FIRST-RENEWAL)."""
    if ctx.interpretation("INT-SJC-FIRST-RENEWAL") == "next_renewal_month":
        this_year = month_end(issued.year, month)
        return this_year if dt.date(issued.year, month, 1) > issued else month_end(issued.year + 1, month)
    return month_end(issued.year + 1, month)


def month_pt(month: int) -> str:
    return MONTHS_PT[month - 1]


def document_state(document: Document | None, on: dt.date) -> tuple[bool, str]:
    """(accepted, why in Portuguese): presented, not declared invalid or positive, not expired on ``on``."""
    if document is None:
        return False, "não apresentado"
    if document.valid is False:
        return False, "apresentado, mas inválido ou positivo"
    if document.expiry_date is not None and document.expiry_date < on:
        return False, f"vencido em {br(document.expiry_date)}"
    return True, "apresentado" if document.expiry_date is None else f"válido até {br(document.expiry_date)}"
