"""Deadline arithmetic with explicit counting and rounding modes.

Every function takes its counting rule as a required keyword argument — there is no silent default — and
returns a `Deadline` whose `steps` explain the arithmetic in Portuguese and whose `citations` name the legal
basis of each step as plain citation strings (the core's Context validates them).

Rules implemented (docs/lawcode/deadlines.md has the examples and the interpretation points):
- Lei 9.784/1999 art. 66 caput: exclude the start day, include the last day;
  §1: a deadline ending on a day without office hours moves to the next business day (when asked to);
  §2: "dias" run continuously; §3: months and years run date to date, a missing day → last day of the month.
- Código Civil art. 132 §3: months and years date to date, a missing day → the next day; §4: hours run
  minute by minute.
- LC 95/1998 art. 8 §1: a vacatio legis counts the publication day and the last day; in force the day after.
"""

from __future__ import annotations

import calendar as stdlib_calendar
import datetime as dt
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

from lawcode.calendar import LegalCalendar, format_date_pt, weekday_pt
from lawcode.errors import LawcodeError, RoundingModeRequiredError

LEI9784_ART66 = "lei9784:art66"
LEI9784_ART66_PAR1 = "lei9784:art66_par1"
LEI9784_ART66_PAR2 = "lei9784:art66_par2"
LEI9784_ART66_PAR3 = "lei9784:art66_par3"
CC_ART132_PAR3 = "codigo_civil:art132_par3"
CC_ART132_PAR4 = "codigo_civil:art132_par4"
CPC_ART219 = "cpc:art219"
LC95_ART8_PAR1 = "lc95:art8_par1"

MONTH_NAMES_PT = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)


class DayCounting(Enum):
    """How a deadline in days counts; values match the Unit names calendar_days / business_days."""

    CALENDAR = "calendar_days"  # dias corridos (Lei 9.784 art. 66 §2)
    BUSINESS = "business_days"  # dias úteis

    @property
    def label_pt(self) -> str:
        return "dias corridos" if self is DayCounting.CALENDAR else "dias úteis"


class MonthRounding(Enum):
    """Where a month/year deadline ends when the target month lacks the start day (e.g. 31 → February)."""

    LAST_DAY_OF_MONTH = "last_day_of_month"  # Lei 9.784/1999 art. 66 §3
    NEXT_DAY = "next_day"  # Código Civil art. 132 §3

    @property
    def citation(self) -> str:
        return LEI9784_ART66_PAR3 if self is MonthRounding.LAST_DAY_OF_MONTH else CC_ART132_PAR3


@dataclass(frozen=True)
class Deadline:
    """A computed deadline: counted from `start` (excluded), ending on `end` (included)."""

    start: dt.date
    end: dt.date
    steps: tuple[str, ...]
    citations: tuple[str, ...]

    def is_timely(self, acted_on: dt.date) -> bool:
        """True when an act done on `acted_on` (filing, payment, cure) is within the deadline."""
        return acted_on <= self.end

    def explanation(self) -> str:
        return "; ".join(self.steps)

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "steps": list(self.steps),
            "citations": list(self.citations),
        }


@dataclass(frozen=True)
class HoursDeadline:
    """A deadline in hours (Código Civil art. 132 §4: counted minute by minute)."""

    start: dt.datetime
    end: dt.datetime
    steps: tuple[str, ...]
    citations: tuple[str, ...]

    def is_timely(self, acted_at: dt.datetime) -> bool:
        return acted_at <= self.end

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
            "steps": list(self.steps),
            "citations": list(self.citations),
        }


# --- days ------------------------------------------------------------------------------------------------


def count_days(
    start: dt.date,
    n: int,
    *,
    counting: DayCounting,
    calendar: LegalCalendar,
    extend_to_business_day: bool,
) -> Deadline:
    """A deadline of `n` days from `start`, the start day excluded and the last included (Lei 9.784 art. 66).

    CALENDAR counts every day (art. 66 §2); BUSINESS counts only the calendar's business days. With
    extend_to_business_day, an end on a day without (full) office hours moves forward (art. 66 §1).
    """
    _require_positive(n, "n", "dias")
    counting = _require_counting(counting)
    if counting is DayCounting.CALENDAR:
        end = start + dt.timedelta(days=n)
        steps = [_days_step(start, n, counting, end)]
        citations = [LEI9784_ART66, LEI9784_ART66_PAR2]
    else:
        end, skipped = _add_business_days(start, n, calendar)
        steps = [_days_step(start, n, counting, end, skipped)]
        citations = [LEI9784_ART66, CPC_ART219]
    return _finish(start, end, steps, citations, calendar, extend_to_business_day)


def _add_business_days(
    start: dt.date, n: int, calendar: LegalCalendar
) -> tuple[dt.date, list[tuple[dt.date, str]]]:
    """The n-th business day after `start`, and the non-business days passed over on the way."""
    day, counted, skipped = start, 0, []
    while counted < n:
        day += dt.timedelta(days=1)
        reason = calendar.reason_closed(day)
        if reason is None:
            counted += 1
        else:
            skipped.append((day, reason))
    return day, skipped


def _days_step(
    start: dt.date,
    n: int,
    counting: DayCounting,
    end: dt.date,
    skipped: list[tuple[dt.date, str]] | None = None,
) -> str:
    text = f"prazo de {n} {counting.label_pt} contados de {format_date_pt(start)}, excluído o dia do início"
    if skipped:
        listed = ", ".join(f"{format_date_pt(day)} ({reason})" for day, reason in skipped)
        text += f"; não contam os dias sem expediente {listed}"
    return f"{text}: termina em {format_date_pt(end)}"


def _finish(
    start: dt.date,
    end: dt.date,
    steps: list[str],
    citations: list[str],
    calendar: LegalCalendar,
    extend_to_business_day: bool,
) -> Deadline:
    """Apply (or explicitly decline) the extension of Lei 9.784 art. 66 §1 and build the Deadline."""
    reason = calendar.reason_deadline_cannot_end(end)
    if reason is not None and extend_to_business_day:
        moved = calendar.deadline_day_on_or_after(end)
        steps.append(_extension_step(end, moved, calendar))
        citations.append(LEI9784_ART66_PAR1)
        end = moved
    elif reason is not None:
        steps.append(_no_extension_step(end, reason))
    return Deadline(start=start, end=end, steps=tuple(steps), citations=tuple(dict.fromkeys(citations)))


def _no_extension_step(end: dt.date, reason: str) -> str:
    return f"{format_date_pt(end)} ({reason}) é dia sem expediente, mas nesta contagem não há prorrogação"


def _extension_step(end: dt.date, moved: dt.date, calendar: LegalCalendar) -> str:
    closed = []
    day = end
    while day < moved:
        closed.append(f"{format_date_pt(day)} ({calendar.reason_deadline_cannot_end(day)})")
        day += dt.timedelta(days=1)
    return (
        f"vencimento em dia sem expediente — {', '.join(closed)}: "
        f"prorrogado para {format_date_pt(moved)} ({weekday_pt(moved)})"
    )


def days_between(start: dt.date, end: dt.date, *, counting: DayCounting, calendar: LegalCalendar) -> int:
    """Days from `start` (excluded) to `end` (included); negative when `end` is before `start`.

    With BUSINESS counting only the calendar's business days in that interval count.
    """
    counting = _require_counting(counting)
    if counting is DayCounting.CALENDAR:
        return (end - start).days
    low, high, sign = (start, end, 1) if start <= end else (end, start, -1)
    total = sum(
        1
        for offset in range(1, (high - low).days + 1)
        if calendar.is_business_day(low + dt.timedelta(days=offset))
    )
    return sign * total


# --- months and years ------------------------------------------------------------------------------------


def count_months(
    start: dt.date,
    n: int,
    *,
    rounding: MonthRounding,
    calendar: LegalCalendar,
    extend_to_business_day: bool,
) -> Deadline:
    """A deadline of `n` months, date to date; `rounding` decides a start day the end month lacks."""
    _require_positive(n, "n", "meses")  # first: True == 1 would find the deadline of 1
    key = ("months", start, n, rounding, extend_to_business_day)
    kept = calendar.kept(key)
    if kept is not None:
        return cast(Deadline, kept)
    rounding = _require_rounding(rounding)
    end, step = _date_to_date(start, n, rounding, "1 mês" if n == 1 else f"{n} meses")
    return calendar.keep(
        key, _finish(start, end, [step], [rounding.citation], calendar, extend_to_business_day)
    )


def count_years(
    start: dt.date,
    n: int,
    *,
    rounding: MonthRounding,
    calendar: LegalCalendar,
    extend_to_business_day: bool,
) -> Deadline:
    """A deadline of `n` years, date to date; `rounding` decides 29 February in a common year."""
    _require_positive(n, "n", "anos")  # first: True == 1 would find the deadline of 1
    key = ("years", start, n, rounding, extend_to_business_day)
    kept = calendar.kept(key)
    if kept is not None:
        return cast(Deadline, kept)
    rounding = _require_rounding(rounding)
    end, step = _date_to_date(start, 12 * n, rounding, "1 ano" if n == 1 else f"{n} anos")
    return calendar.keep(
        key, _finish(start, end, [step], [rounding.citation], calendar, extend_to_business_day)
    )


def add_months(start: dt.date, n: int, *, rounding: MonthRounding) -> dt.date:
    """`start` plus `n` months (n may be negative), with an explicit rounding for a missing day."""
    rounding = _require_rounding(rounding)
    return _date_to_date(start, n, rounding, "")[0]


def _date_to_date(start: dt.date, months: int, rounding: MonthRounding, length: str) -> tuple[dt.date, str]:
    year, month_index = divmod(start.month - 1 + months, 12)
    year += start.year
    month = month_index + 1
    last_day = stdlib_calendar.monthrange(year, month)[1]
    head = f"prazo de {length} contado de {format_date_pt(start)}, de data a data"
    if start.day <= last_day:
        end = dt.date(year, month, start.day)
        return end, f"{head}: termina em {format_date_pt(end)}"
    missing = f"{MONTH_NAMES_PT[month - 1]} de {year} não tem dia {start.day}"
    if rounding is MonthRounding.LAST_DAY_OF_MONTH:
        end = dt.date(year, month, last_day)
        return end, f"{head}; {missing}: termina no último dia do mês, {format_date_pt(end)}"
    end = dt.date(year, month, last_day) + dt.timedelta(days=1)
    return end, f"{head}; {missing}: termina no dia imediato, {format_date_pt(end)}"


# --- hours -----------------------------------------------------------------------------------------------


def add_hours(start: dt.datetime, hours: int) -> dt.datetime:
    """`start` plus `hours` of elapsed time (Código Civil art. 132 §4: minute by minute).

    An aware datetime is shifted in UTC so that a change of UTC offset does not add or drop an hour; a naive
    one is taken as local wall time.
    """
    _require_positive(hours, "hours", "horas")
    if start.tzinfo is None:
        return start + dt.timedelta(hours=hours)
    return (start.astimezone(dt.UTC) + dt.timedelta(hours=hours)).astimezone(start.tzinfo)


def count_hours(
    start: dt.datetime, hours: int, *, calendar: LegalCalendar, extend_to_business_day: bool
) -> HoursDeadline:
    """A deadline of `hours` hours from `start` (e.g. Votuporanga art. 16: 24 hours to regularize).

    With extend_to_business_day, an end on a day without office hours moves to the same clock time of the next
    day on which a deadline can end (Lei 9.784 art. 66 §1 by analogy; see docs/lawcode/deadlines.md).
    """
    end = add_hours(start, hours)
    steps = [
        f"prazo de {hours} horas contado de {_format_datetime_pt(start)}, minuto a minuto: "
        f"termina em {_format_datetime_pt(end)}"
    ]
    citations = [CC_ART132_PAR4]
    reason = calendar.reason_deadline_cannot_end(end.date())
    if reason is not None and extend_to_business_day:
        moved_day = calendar.deadline_day_on_or_after(end.date())
        end = end + dt.timedelta(days=(moved_day - end.date()).days)
        steps.append(_hours_move_step(reason, end))
        citations.append(LEI9784_ART66_PAR1)
    elif reason is not None:
        steps.append(_no_extension_step(end.date(), reason))
    return HoursDeadline(start=start, end=end, steps=tuple(steps), citations=tuple(citations))


def _hours_move_step(reason: str, moved_end: dt.datetime) -> str:
    return f"vencimento em dia sem expediente ({reason}): prorrogado para {_format_datetime_pt(moved_end)}"


def _format_datetime_pt(moment: dt.datetime) -> str:
    return f"{format_date_pt(moment.date())} às {moment.strftime('%H:%M')}"


# --- publication: edital and vacatio legis ---------------------------------------------------------------


def edital_notice_period(
    published_on: dt.date, days: int, *, counting: DayCounting, calendar: LegalCalendar
) -> Deadline:
    """When notice by edital is deemed given: `days` after publication, the publication day excluded.

    Olímpia art. 34 II: "considerando-se efetivada a ciência da decisão após 5 (cinco) dias corridos da data
    de publicação" → published 02/03/2026, ciência on 07/03/2026. The ciência date is never extended to a
    business day: it only starts the next deadline, which is extended at its own end.
    """
    _require_positive(days, "days", "dias")
    counting = _require_counting(counting)
    if counting is DayCounting.CALENDAR:
        end, skipped = published_on + dt.timedelta(days=days), list[tuple[dt.date, str]]()
    else:
        end, skipped = _add_business_days(published_on, days, calendar)
    step = _days_step(published_on, days, counting, end, skipped)
    steps = (
        f"edital publicado em {format_date_pt(published_on)}",
        step.replace("excluído o dia do início", "excluído o dia da publicação"),
        f"ciência considerada efetivada em {format_date_pt(end)}",
    )
    citations = (LEI9784_ART66,) if counting is DayCounting.CALENDAR else (LEI9784_ART66, CPC_ART219)
    return Deadline(start=published_on, end=end, steps=steps, citations=citations)


def edital_deemed_notice(
    published_on: dt.date, days: int, *, counting: DayCounting, calendar: LegalCalendar
) -> dt.date:
    """The date on which notice by edital is deemed given (see edital_notice_period)."""
    return edital_notice_period(published_on, days, counting=counting, calendar=calendar).end


def vacatio_period(published_on: dt.date, days: int) -> Deadline:
    """The vacatio legis of LC 95/1998 art. 8 §1: counts the publication day and the last day.

    `end` is the last day of the vacatio; the law is in force from the next day (Patrocínio: published
    23/09/2025, 90 days → last day 21/12/2025, in force 22/12/2025). Never moved to a business day: a law
    enters into force on any day.
    """
    _require_positive(days, "days", "dias")
    last_day = published_on + dt.timedelta(days=days - 1)
    in_force = last_day + dt.timedelta(days=1)
    steps = (
        f"lei publicada em {format_date_pt(published_on)} com vacância de {days} dias, contados com a "
        f"inclusão do dia da publicação e do último dia: a vacância termina em {format_date_pt(last_day)}",
        f"entra em vigor no dia subsequente à consumação integral do prazo: {format_date_pt(in_force)}",
    )
    return Deadline(start=published_on, end=last_day, steps=steps, citations=(LC95_ART8_PAR1,))


def in_force_after_vacatio(published_on: dt.date, days: int) -> dt.date:
    """The first day a law with a vacatio of `days` days is in force (LC 95/1998 art. 8 §1)."""
    return vacatio_period(published_on, days).end + dt.timedelta(days=1)


# --- argument checks -------------------------------------------------------------------------------------


def _require_positive(value: int, name: str, unit_pt: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LawcodeError(
            f"deadline length {name}={value!r} must be a whole number of {unit_pt} of at least 1",
            message_pt=f"prazo inválido: {value!r} {unit_pt}; informe um número inteiro maior que zero",
            field=name,
            hint="check the parameter that gives the deadline length",
        )


def _require_counting(counting: object) -> DayCounting:
    if isinstance(counting, DayCounting):
        return counting
    raise LawcodeError(
        f"day counting must be DayCounting.CALENDAR or DayCounting.BUSINESS, got {counting!r}",
        message_pt="informe a contagem do prazo: dias corridos ou dias úteis",
        field="counting",
        hint="the law (or a named interpretation) must say whether the days are 'corridos' or 'úteis'",
    )


def _require_rounding(rounding: object) -> MonthRounding:
    if isinstance(rounding, MonthRounding):
        return rounding
    raise RoundingModeRequiredError(
        f"month/year arithmetic needs an explicit MonthRounding, got {rounding!r}",
        message_pt="informe a regra do prazo em meses/anos: último dia do mês (Lei 9.784/1999, art. 66, §3º) "
        "ou dia imediato (Código Civil, art. 132, §3º)",
        field="rounding",
        hint="pass rounding=MonthRounding.LAST_DAY_OF_MONTH (Lei 9.784 art. 66 §3) or MonthRounding.NEXT_DAY "
        "(Código Civil art. 132 §3), usually from a named interpretation",
    )
