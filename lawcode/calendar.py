"""Legal calendar: which days have office hours ("expediente") in a municipality.

Lei 9.784/1999 art. 66 §1 moves a deadline that ends on a day without office hours, so the engine needs to
know, for one municipality, every day the prefeitura is closed: weekends, national and state holidays (from
the `holidays` package), the municipality's own holidays and the closure days it decrees (ponto facultativo,
holidays moved by decree). The municipal part is data (`calendar.yaml` in each regime folder, extra closures
from the municipality's configuration); its schema is documented in docs/lawcode/deadlines.md.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NoReturn, TypeVar

import holidays

from lawcode.errors import RegimeDefinitionError

T = TypeVar("T")
_KEPT_LIMIT = 10_000  # deadlines per calendar; past it the table starts afresh

WEEKDAY_NAMES_PT = (
    "segunda-feira",
    "terça-feira",
    "quarta-feira",
    "quinta-feira",
    "sexta-feira",
    "sábado",
    "domingo",
)
BRAZILIAN_UFS = frozenset(
    {"AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA"}
    | {"PB", "PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO"}
)


def format_date_pt(day: dt.date) -> str:
    """Date as a Brazilian reader writes it: 06/03/2026."""
    return day.strftime("%d/%m/%Y")


def weekday_pt(day: dt.date) -> str:
    return WEEKDAY_NAMES_PT[day.weekday()]


class HolidayKind(Enum):
    """Where a closed day comes from; the value is the label shown to users."""

    NATIONAL = "feriado nacional"
    STATE = "feriado estadual"
    OPTIONAL = "ponto facultativo"
    MUNICIPAL = "feriado municipal"
    CLOSURE = "sem expediente"
    EARLY_CLOSING = "expediente encerrado antes da hora normal"


@dataclass(frozen=True)
class MunicipalHoliday:
    """A municipal holiday: recurring on a month-day, relative to Easter, or on one date.

    Exactly one of (month and day), easter_offset or on is set. first_year/last_year bound a recurring
    holiday to the years a municipal law instituted it.
    """

    name: str
    month: int | None = None
    day: int | None = None
    easter_offset: int | None = None
    on: dt.date | None = None
    first_year: int | None = None
    last_year: int | None = None
    basis: str | None = None
    source: str | None = None
    confidence: str | None = None

    def date_in(self, year: int) -> dt.date | None:
        """The day this holiday falls on in `year`, or None when it does not occur that year."""
        if self.first_year is not None and year < self.first_year:
            return None
        if self.last_year is not None and year > self.last_year:
            return None
        if self.on is not None:
            return self.on if self.on.year == year else None
        if self.easter_offset is not None:
            return easter_sunday(year) + dt.timedelta(days=self.easter_offset)
        return _month_day_in(year, self.month, self.day)


def _month_day_in(year: int, month: int | None, day: int | None) -> dt.date | None:
    if month is None or day is None:
        return None
    try:
        return dt.date(year, month, day)
    except ValueError:  # 29 February in a common year: the holiday does not occur
        return None


@dataclass(frozen=True)
class Closure:
    """A dated day without (full) office hours: ponto facultativo, a holiday moved by decree, a strike.

    early_closing=True means the office opened but closed before the usual hour (Lei 9.784 art. 66 §1,
    "encerrado antes da hora normal"): the day still counts as a business day, but a deadline cannot end
    on it.
    """

    on: dt.date
    name: str
    basis: str | None = None
    early_closing: bool = False
    source: str | None = None
    confidence: str | None = None


@dataclass(frozen=True)
class Opening:
    """A dated day with office hours although a holiday or closure falls on it (e.g. a holiday moved away by
    decree). It never opens a Saturday or Sunday."""

    on: dt.date
    name: str
    basis: str | None = None
    source: str | None = None
    confidence: str | None = None


@dataclass(frozen=True)
class _YearTable:
    """One year's days without office hours (closed) and with early closing, each with its pt-BR labels."""

    closed: Mapping[dt.date, tuple[str, ...]]
    early_closing: Mapping[dt.date, tuple[str, ...]]


@dataclass(frozen=True)
class LegalCalendar:
    """Office-hours calendar of one municipality.

    include_optional_holidays: whether the `holidays` package's "optional" days (Carnaval, Quarta-feira de
    Cinzas until noon, Corpus Christi, Dia do Servidor, 24/12, 31/12) are days without office hours. They are
    pontos facultativos decreed year by year, so the default is False; a municipality that always closes on
    them sets it True (or lists the exact days as closures).
    """

    subdivision: str
    municipal_holidays: tuple[MunicipalHoliday, ...] = ()
    closures: tuple[Closure, ...] = ()
    openings: tuple[Opening, ...] = ()
    include_optional_holidays: bool = False
    _years: dict[int, _YearTable] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _kept: dict[Hashable, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __post_init__(self) -> None:
        if self.subdivision not in BRAZILIAN_UFS:
            raise RegimeDefinitionError(
                f"unknown Brazilian state (UF) {self.subdivision!r} for the legal calendar",
                message_pt=f"UF desconhecida no calendário: {self.subdivision!r}; use a sigla (ex.: SP, MG)",
                field="uf",
                hint="set 'uf' in regime.yaml to a two-letter UF such as SP or MG",
            )

    @classmethod
    def from_yaml_data(
        cls,
        uf: str,
        data: Mapping[str, Any] | None,
        where: str,
        *,
        extra_closures: Iterable[Closure] = (),
    ) -> LegalCalendar:
        """Build a calendar from a regime's calendar.yaml (already parsed) plus configured closures.

        `where` names the source (file path) in error messages. Raises RegimeDefinitionError naming the
        field that is wrong and what to write instead.
        """
        reader = _CalendarYamlReader(where)
        top = reader.mapping(data if data is not None else {}, "calendar.yaml", None, _TOP_KEYS)
        return cls(
            subdivision=uf,
            municipal_holidays=reader.items(top, "municipal_holidays", reader.holiday),
            closures=reader.items(top, "closures", reader.closure) + tuple(extra_closures),
            openings=reader.items(top, "openings", reader.opening),
            include_optional_holidays=reader.optional_bool(top, _OPTIONAL, "calendar.yaml"),
        )

    def extended_with_data(self, data: Mapping[str, Any] | None, where: str) -> LegalCalendar:
        """A copy extended with entries written in the calendar.yaml schema (e.g. a municipality's Config).

        include_optional_holidays changes only when `data` sets it.
        """
        reader = _CalendarYamlReader(where)
        top = reader.mapping(data if data is not None else {}, "calendar", None, _TOP_KEYS)
        optional = top.get(_OPTIONAL)
        return self.extended(
            municipal_holidays=reader.items(top, "municipal_holidays", reader.holiday),
            closures=reader.items(top, "closures", reader.closure),
            openings=reader.items(top, "openings", reader.opening),
            include_optional_holidays=None
            if optional is None
            else reader.optional_bool(top, _OPTIONAL, "calendar"),
        )

    def extended(
        self,
        *,
        municipal_holidays: Iterable[MunicipalHoliday] = (),
        closures: Iterable[Closure] = (),
        openings: Iterable[Opening] = (),
        include_optional_holidays: bool | None = None,
    ) -> LegalCalendar:
        """A copy with more municipal holidays/closures/openings (per-municipality configuration)."""
        optional = (
            self.include_optional_holidays if include_optional_holidays is None else include_optional_holidays
        )
        return LegalCalendar(
            subdivision=self.subdivision,
            municipal_holidays=self.municipal_holidays + tuple(municipal_holidays),
            closures=self.closures + tuple(closures),
            openings=self.openings + tuple(openings),
            include_optional_holidays=optional,
        )

    # --- questions about a day -------------------------------------------------------------------------

    def reasons_closed(self, day: dt.date) -> tuple[str, ...]:
        """Every reason `day` has no office hours, in pt-BR ("sábado", "feriado nacional: Natal")."""
        weekend = (weekday_pt(day),) if day.weekday() >= 5 else ()
        return weekend + self._year(day.year).closed.get(day, ())

    def reason_closed(self, day: dt.date) -> str | None:
        """Why `day` has no office hours, or None on a business day."""
        reasons = self.reasons_closed(day)
        return "; ".join(reasons) if reasons else None

    def is_business_day(self, day: dt.date) -> bool:
        """A dia útil: a weekday with office hours (an early-closing day still counts)."""
        return not self.reasons_closed(day)

    def reason_deadline_cannot_end(self, day: dt.date) -> str | None:
        """Why a deadline may not end on `day` (Lei 9.784 art. 66 §1): no office hours or early closing."""
        reasons = self.reasons_closed(day) or self._year(day.year).early_closing.get(day, ())
        return "; ".join(reasons) if reasons else None

    def can_end_deadline(self, day: dt.date) -> bool:
        return self.reason_deadline_cannot_end(day) is None

    def next_business_day(self, day: dt.date) -> dt.date:
        """The first business day strictly after `day`."""
        candidate = day + dt.timedelta(days=1)
        while not self.is_business_day(candidate):
            candidate += dt.timedelta(days=1)
        return candidate

    def business_day_on_or_after(self, day: dt.date) -> dt.date:
        return day if self.is_business_day(day) else self.next_business_day(day)

    def deadline_day_on_or_after(self, day: dt.date) -> dt.date:
        """The first day on or after `day` on which a deadline can end (full office hours)."""
        candidate = day
        while not self.can_end_deadline(candidate):
            candidate += dt.timedelta(days=1)
        return candidate

    def closed_days(self, start: dt.date, end: dt.date) -> tuple[tuple[dt.date, str], ...]:
        """Every day in [start, end] without office hours, with its reason (for listings and explanations)."""
        result: list[tuple[dt.date, str]] = []
        day = start
        while day <= end:
            reason = self.reason_closed(day)
            if reason is not None:
                result.append((day, reason))
            day += dt.timedelta(days=1)
        return tuple(result)

    def kept(self, key: Hashable) -> Any | None:
        """What ``keep`` stored under ``key`` for this calendar (None if nothing)."""
        try:
            return self._kept.get(key)
        except TypeError:  # an unhashable part (a caller's mistake, which the computation reports)
            return None

    def keep(self, key: Hashable, value: T) -> T:
        """Store ``value`` under ``key`` and return it: a deadline counted on this calendar depends only on its
        start, length and counting rule (deadlines.py), and a bulk run counts the same ones thousands of times."""
        table = self._kept
        if len(table) >= _KEPT_LIMIT:
            table.clear()
        table[key] = value
        return value

    # --- holiday tables, cached per year ------------------------------------------------------------------

    def _year(self, year: int) -> _YearTable:
        table = self._years.get(year)
        if table is None:
            table = self._build_year(year)
            self._years[year] = table
        return table

    def _build_year(self, year: int) -> _YearTable:
        closed: dict[dt.date, list[str]] = {}
        early: dict[dt.date, list[str]] = {}
        for day, kind, name in self._entries(year):
            labels = (early if kind is HolidayKind.EARLY_CLOSING else closed).setdefault(day, [])
            if f"{kind.value}: {name}" not in labels:
                labels.append(f"{kind.value}: {name}")
        opened = {opening.on for opening in self.openings if opening.on.year == year}
        return _YearTable(
            closed={day: tuple(labels) for day, labels in closed.items() if day not in opened},
            early_closing={day: tuple(labels) for day, labels in early.items() if day not in opened},
        )

    def _entries(self, year: int) -> list[tuple[dt.date, HolidayKind, str]]:
        entries = list(package_holidays(self.subdivision, year, self.include_optional_holidays))
        for holiday in self.municipal_holidays:
            day = holiday.date_in(year)
            if day is not None:
                entries.append((day, HolidayKind.MUNICIPAL, holiday.name))
        for closure in self.closures:
            if closure.on.year == year:
                kind = HolidayKind.EARLY_CLOSING if closure.early_closing else HolidayKind.CLOSURE
                entries.append((closure.on, kind, _with_basis(closure.name, closure.basis)))
        return entries


def _with_basis(name: str, basis: str | None) -> str:
    return f"{name} ({basis})" if basis else name


@functools.lru_cache(maxsize=512)
def package_holidays(
    uf: str, year: int, include_optional: bool
) -> tuple[tuple[dt.date, HolidayKind, str], ...]:
    """National, state and (optionally) ponto-facultativo days of `year` from the `holidays` package.

    Cached per (UF, year, optional) for the whole process: every Context builds its own LegalCalendar when a
    Config adds closures, and bulk evaluation must not rebuild the package's tables each time.

    The package merges national and state names on one date ("Execução de Tiradentes; Tiradentes" in MG), so
    a name counts as state-level only when the national table lacks it on that date.
    """
    national = _holiday_table(None, year, "public")
    state = _holiday_table(uf, year, "public")
    entries = [(day, HolidayKind.NATIONAL, name) for day, names in national.items() for name in names]
    for day, names in state.items():
        entries += [(day, HolidayKind.STATE, n) for n in names if n not in national.get(day, ())]
    if include_optional:
        optional = _holiday_table(uf, year, "optional")
        entries += [(day, HolidayKind.OPTIONAL, name) for day, names in optional.items() for name in names]
    return tuple(sorted(entries, key=lambda entry: (entry[0], list(HolidayKind).index(entry[1]), entry[2])))


def _holiday_table(uf: str | None, year: int, category: str) -> dict[dt.date, tuple[str, ...]]:
    table = holidays.country_holidays("BR", subdiv=uf, years=year, categories=(category,), language="pt_BR")
    return {day: tuple(table.get_list(day)) for day in sorted(table)}


def easter_sunday(year: int) -> dt.date:
    """Gregorian Easter Sunday (anonymous Gregorian computus), for holidays expressed relative to Easter."""
    golden = year % 19
    century, year_of_century = divmod(year, 100)
    leap_centuries, century_rest = divmod(century, 4)
    moon_correction = (century + 8) // 25
    epact_base = (19 * golden + century - leap_centuries - (century - moon_correction + 1) // 3 + 15) % 30
    quarter, year_rest = divmod(year_of_century, 4)
    weekday_shift = (32 + 2 * century_rest + 2 * quarter - epact_base - year_rest) % 7
    month_shift = (golden + 11 * epact_base + 22 * weekday_shift) // 451
    month, day = divmod(epact_base + weekday_shift - 7 * month_shift + 114, 31)
    return dt.date(year, month, day + 1)


# --- calendar.yaml reader (schema in docs/lawcode/deadlines.md) -------------------------------------------

_OPTIONAL = "include_optional_holidays"
_TOP_KEYS = frozenset({_OPTIONAL, "municipal_holidays", "closures", "openings"})
_DOC_KEYS = frozenset({"name", "basis", "source", "confidence", "note"})
_HOLIDAY_KEYS = _DOC_KEYS | {"month", "day", "easter_offset", "date", "first_year", "last_year"}
_CLOSURE_KEYS = _DOC_KEYS | {"date", "early_closing"}
_OPENING_KEYS = _DOC_KEYS | {"date"}
CONFIDENCE_GRADES = ("V", "S", "M", "NF")
_Item = TypeVar("_Item")


def _line_of(container: object, key: object) -> int | None:
    """Line of `key` (a mapping key or a list index) when the YAML was loaded with line marks.

    Works with lawcode.yamlsource's YamlMap.line_of and YamlList.line_at; plain dicts and lists give None.
    """
    lookup = getattr(container, "line_at" if isinstance(container, list) else "line_of", None)
    line: object = lookup(key) if lookup is not None else getattr(container, "line", None)
    return line if isinstance(line, int) and line > 0 else None


class _CalendarYamlReader:
    """Validates parsed calendar.yaml data field by field; every error names the file, field and the fix."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, path: str, line: int | None, problem: str, problem_pt: str, hint: str) -> NoReturn:
        raise RegimeDefinitionError(
            f"{path}: {problem}; {hint}",
            message_pt=f"calendário municipal, campo {path}: {problem_pt}",
            file=self.where,
            line=line,
            field=path,
            hint=hint,
        )

    def mapping(
        self, value: object, path: str, line: int | None, allowed: frozenset[str]
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(
                path,
                line,
                f"expected a mapping, got {value!r}",
                "esperado um mapa de campos",
                f"write it as 'key: value' lines with keys from {sorted(allowed)}",
            )
        if any(isinstance(key, bool) for key in value):
            self.fail(
                path,
                line,
                "a key was read by YAML as a boolean (on/off/yes/no mean true/false)",
                "um campo foi lido como verdadeiro/falso (on/off/yes/no); use 'date:' para a data",
                f"rename it; keys allowed here: {', '.join(sorted(allowed))} (a date is 'date: 2025-10-31')",
            )
        unknown = sorted(str(key) for key in value if key not in allowed)
        if unknown:
            self.fail(
                f"{path}.{unknown[0]}",
                _line_of(value, unknown[0]) or line,
                f"unknown key {unknown[0]!r}",
                f"campo desconhecido {unknown[0]!r}",
                f"allowed keys: {', '.join(sorted(allowed))}",
            )
        return value

    def items(
        self, top: Mapping[str, Any], key: str, build: Callable[[object, str, int | None], _Item]
    ) -> tuple[_Item, ...]:
        raw = top.get(key)
        if raw is None:
            return ()
        if not isinstance(raw, list):
            self.fail(
                key,
                _line_of(top, key),
                f"expected a list, got {raw!r}",
                "esperada uma lista",
                f"write '{key}:' followed by '- ' items, or '{key}: []'",
            )
        return tuple(build(item, f"{key}[{index}]", _line_of(raw, index)) for index, item in enumerate(raw))

    def holiday(self, item: object, path: str, line: int | None) -> MunicipalHoliday:
        entry = self.mapping(item, path, line, _HOLIDAY_KEYS)
        kinds = [kind for kind in ("month", "easter_offset", "date") if kind in entry]
        if len(kinds) != 1 or ("day" in entry) != ("month" in entry):
            self.fail(
                path,
                line,
                "a holiday needs exactly one of: month+day, easter_offset, date",
                "informe só um: month e day (anual), easter_offset (móvel) ou date (data única)",
                "e.g. 'month: 3' and 'day: 2', or 'easter_offset: -2' (Good Friday), or 'date: 2026-05-04'",
            )
        holiday = MunicipalHoliday(
            name=self.text(entry, "name", path, required=True) or "",
            month=self.integer(entry, "month", path, 1, 12),
            day=self.integer(entry, "day", path, 1, 31),
            easter_offset=self.integer(entry, "easter_offset", path, -120, 120),
            on=self.date(entry, "date", path, required=False),
            first_year=self.integer(entry, "first_year", path, 1500, 9999),
            last_year=self.integer(entry, "last_year", path, 1500, 9999),
            **self.documentation(entry, path),
        )
        self.check_holiday(holiday, entry, path)
        return holiday

    def check_holiday(self, holiday: MunicipalHoliday, entry: Mapping[str, Any], path: str) -> None:
        if holiday.month is not None and _month_day_in(2000, holiday.month, holiday.day) is None:
            self.fail(
                f"{path}.day",
                _line_of(entry, "day"),
                f"{holiday.month}/{holiday.day} is not a date",
                f"dia {holiday.day} não existe no mês {holiday.month}",
                "fix the month or the day",
            )
        if holiday.first_year and holiday.last_year and holiday.first_year > holiday.last_year:
            self.fail(
                f"{path}.last_year",
                _line_of(entry, "last_year"),
                "last_year is before first_year",
                "last_year anterior a first_year",
                "swap or fix the years",
            )

    def closure(self, item: object, path: str, line: int | None) -> Closure:
        entry = self.mapping(item, path, line, _CLOSURE_KEYS)
        return Closure(
            on=self.date(entry, "date", path, required=True) or dt.date.min,
            name=self.text(entry, "name", path, required=True) or "",
            early_closing=self.optional_bool(entry, "early_closing", path),
            **self.documentation(entry, path),
        )

    def opening(self, item: object, path: str, line: int | None) -> Opening:
        entry = self.mapping(item, path, line, _OPENING_KEYS)
        return Opening(
            on=self.date(entry, "date", path, required=True) or dt.date.min,
            name=self.text(entry, "name", path, required=True) or "",
            **self.documentation(entry, path),
        )

    def documentation(self, entry: Mapping[str, Any], path: str) -> dict[str, str | None]:
        confidence = self.text(entry, "confidence", path, required=False)
        if confidence is not None and confidence not in CONFIDENCE_GRADES:
            self.fail(
                f"{path}.confidence",
                _line_of(entry, "confidence"),
                f"unknown grade {confidence!r}",
                f"grau de confiança desconhecido {confidence!r}",
                f"use one of {', '.join(CONFIDENCE_GRADES)}",
            )
        return {
            "basis": self.text(entry, "basis", path, required=False),
            "source": self.text(entry, "source", path, required=False),
            "confidence": confidence,
        }

    def text(self, entry: Mapping[str, Any], key: str, path: str, *, required: bool) -> str | None:
        value = entry.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value.strip():
            self.fail(
                f"{path}.{key}",
                _line_of(entry, key) or _line_of(entry, None),
                f"expected a non-empty text, got {value!r}",
                "informe um texto não vazio",
                f"write '{key}: <text>'",
            )
        return value.strip()

    def integer(self, entry: Mapping[str, Any], key: str, path: str, low: int, high: int) -> int | None:
        value: object = entry.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(
                f"{path}.{key}",
                _line_of(entry, key),
                f"expected a whole number from {low} to {high}, got {value!r}",
                f"informe um número inteiro de {low} a {high}",
                f"write '{key}: <number>'",
            )
        return value

    def date(self, entry: Mapping[str, Any], key: str, path: str, *, required: bool) -> dt.date | None:
        value = entry.get(key)
        if value is None and not required:
            return None
        if isinstance(value, str):
            with contextlib.suppress(ValueError):  # left as text: reported just below
                value = dt.date.fromisoformat(value)
        if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
            self.fail(
                f"{path}.{key}",
                _line_of(entry, key) or _line_of(entry, None),
                f"expected a date YYYY-MM-DD, got {value!r}",
                "informe a data no formato AAAA-MM-DD",
                f"write '{key}: 2026-03-02'",
            )
        return value

    def optional_bool(self, entry: Mapping[str, Any], key: str, path: str) -> bool:
        value = entry.get(key, False)
        if not isinstance(value, bool):
            self.fail(
                f"{path}.{key}",
                _line_of(entry, key),
                f"expected true or false, got {value!r}",
                "informe true ou false",
                f"write '{key}: true' or '{key}: false'",
            )
        return value
