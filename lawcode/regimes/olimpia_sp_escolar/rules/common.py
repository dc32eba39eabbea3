"""Helpers shared by the Olímpia rules: dates, ages, municipality names, documents and findings.

Nothing here decides a question; each helper returns a value or a Finding that a rule puts together.
"""

from __future__ import annotations

import datetime as dt
import functools
import unicodedata
from collections.abc import Iterable
from decimal import Decimal

from lawcode.calendar import format_date_pt
from lawcode.context import Context
from lawcode.deadlines import DayCounting, MonthRounding, add_months
from lawcode.decision import Finding, Status
from lawcode.facts import Document

MUNICIPALITY = "olimpia"
_MUNICIPALITY_PREFIXES = ("estancia turistica de ", "municipio de ")


def money(amount: Decimal) -> str:
    """Reais as users read them: R$ 1.152,60."""
    text = f"{amount:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
    return f"R$ {text}"


def published_on(ctx: Context) -> dt.date:
    """Publication date of the law (regime.yaml); art. 40 counts its transition periods from it."""
    return ctx.regime.published or ctx.regime.in_force


def br(day: dt.date) -> str:
    """Date as users read it: 24/09/2025."""
    return format_date_pt(day)


@functools.lru_cache(maxsize=1024)  # a few town names, asked for every vehicle of a bulk run
def normalized_municipality(name: str) -> str:
    """Lower case, no accents, no "Estância Turística de" prefix, no "/SP" suffix."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower().strip()
    plain = plain.split("/")[0].split(" - ")[0].strip()
    for prefix in _MUNICIPALITY_PREFIXES:
        if plain.startswith(prefix):
            plain = plain[len(prefix) :]
    return plain


def is_olimpia(name: str | None) -> bool:
    return name is not None and normalized_municipality(name) == MUNICIPALITY


def completed_years(since: dt.date, on: dt.date) -> int:
    """Whole years from ``since`` to ``on`` (birthday reached on the same month and day)."""
    before_anniversary = (on.month, on.day) < (since.month, since.day)
    return on.year - since.year - (1 if before_anniversary else 0)


def anniversary(since: dt.date, years: int) -> dt.date:
    """The day ``years`` whole years after ``since`` (29 February → 1 March, Código Civil art. 132 §3)."""
    return add_months(since, 12 * years, rounding=MonthRounding.NEXT_DAY)


def months_later(start: dt.date, months: int) -> dt.date:
    """``start`` plus ``months``, date to date; a missing day becomes the month's last (Lei 9.784 art. 66 §3)."""
    return add_months(start, months, rounding=MonthRounding.LAST_DAY_OF_MONTH)


def period_end(start: dt.date, days: int) -> dt.date:
    """Last day of a period of ``days`` days that starts on (and includes) ``start``."""
    return start + dt.timedelta(days=days - 1)


def years_period_end(start: dt.date, years: int) -> dt.date:
    """Last day of a period of ``years`` years that starts on (and includes) ``start``."""
    return months_later(start, 12 * years) - dt.timedelta(days=1)


def day_counting(ctx: Context, *, plain_days: bool) -> tuple[DayCounting, bool]:
    """Counting and weekend extension of a deadline, by INT-OLI-DAYS-COUNTING.

    ``plain_days`` is True for the law's bare "dias" (arts. 31, 32, 40) and False for "dias corridos"
    (art. 33), which only the ``plain_days_business`` reading tells apart.
    """
    option = ctx.interpretation("INT-OLI-DAYS-COUNTING")
    if option == "corridos_no_extension":
        return DayCounting.CALENDAR, False
    if option == "plain_days_business" and plain_days:
        return DayCounting.BUSINESS, True
    return DayCounting.CALENDAR, True


def label(ctx: Context, kind: str) -> str:
    """The kind's name as documents.yaml declares it."""
    return ctx.regime.vocabulary.documents.label(kind)


def document_problem(document: Document | None, name: str, reference: dt.date) -> str | None:
    """Why a document (called ``name``) is not acceptable on ``reference`` (pt-BR), or None when it is."""
    if document is None:
        return f"{name}: não apresentado"
    if document.valid is False:
        return f"{name}: documento apresentado não é válido"
    if document.expiry_date is not None and document.expiry_date < reference:
        return f"{name}: vencido em {br(document.expiry_date)}"
    return None


def document_finding(
    ctx: Context,
    code: str,
    document: Document | None,
    kind: str,
    *,
    cites: Iterable[str],
    reference: dt.date | None = None,
) -> Finding:
    """met when the document is present, valid and not expired on ``reference`` (default as_of)."""
    name = label(ctx, kind)
    problem = document_problem(document, name, reference or ctx.as_of)
    if problem is None:
        return ctx.finding(code, Status.MET, f"{name}: apresentado e em vigor", cites=tuple(cites))
    counterfactual = f"seria atendido com a apresentação do documento em vigor ({name})"
    return ctx.finding(code, Status.NOT_MET, problem, cites=tuple(cites), counterfactual=counterfactual)


def detail_flag(document: Document | None, key: str) -> bool | None:
    """A boolean entry of a document's details (None when the document or the entry is absent)."""
    if document is None:
        return None
    value = document.details.get(key)
    return value if isinstance(value, bool) else None
