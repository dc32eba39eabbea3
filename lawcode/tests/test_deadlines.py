"""Deadline arithmetic on real dates: weekends, holidays, month ends, hours, edital and vacatio legis."""

from __future__ import annotations

import datetime as dt
import inspect
import json
from zoneinfo import ZoneInfo

import pytest

from lawcode.calendar import Closure, LegalCalendar, MunicipalHoliday
from lawcode.deadlines import (
    DayCounting,
    MonthRounding,
    add_hours,
    add_months,
    count_days,
    count_hours,
    count_months,
    count_years,
    days_between,
    edital_deemed_notice,
    edital_notice_period,
    in_force_after_vacatio,
    vacatio_period,
)
from lawcode.errors import LawcodeError, RoundingModeRequiredError

D = dt.date
CALENDAR = DayCounting.CALENDAR
BUSINESS = DayCounting.BUSINESS
LAST_DAY = MonthRounding.LAST_DAY_OF_MONTH
NEXT_DAY = MonthRounding.NEXT_DAY
SP = LegalCalendar("SP")
MG = LegalCalendar("MG")
OLIMPIA = LegalCalendar(
    "SP", municipal_holidays=(MunicipalHoliday(name="Aniversário de Olímpia", month=3, day=2),)
)
VOTUPORANGA = LegalCalendar(
    "SP", municipal_holidays=(MunicipalHoliday(name="Aniversário de Votuporanga", month=8, day=8),)
)


def days(
    start: dt.date,
    n: int,
    calendar: LegalCalendar = SP,
    *,
    counting: DayCounting = CALENDAR,
    extend: bool = True,
) -> dt.date:
    return count_days(start, n, counting=counting, calendar=calendar, extend_to_business_day=extend).end


# --- days (Lei 9.784 art. 66) -----------------------------------------------------------------------------


def test_calendar_days_exclude_the_start_and_include_the_end() -> None:
    deadline = count_days(D(2026, 3, 6), 10, counting=CALENDAR, calendar=SP, extend_to_business_day=True)
    assert deadline.end == D(2026, 3, 16)
    assert deadline.steps == (
        "prazo de 10 dias corridos contados de 06/03/2026, excluído o dia do início: termina em 16/03/2026",
    )
    assert deadline.citations == ("lei9784:art66", "lei9784:art66_par2")


def test_end_on_a_weekend_moves_to_monday_when_extension_applies() -> None:
    deadline = count_days(D(2026, 3, 4), 10, counting=CALENDAR, calendar=SP, extend_to_business_day=True)
    assert deadline.end == D(2026, 3, 16)
    assert deadline.steps[-1] == (
        "vencimento em dia sem expediente — 14/03/2026 (sábado), 15/03/2026 (domingo): "
        "prorrogado para 16/03/2026 (segunda-feira)"
    )
    assert deadline.citations[-1] == "lei9784:art66_par1"


def test_end_on_a_weekend_stays_when_extension_does_not_apply() -> None:
    deadline = count_days(D(2026, 3, 4), 10, counting=CALENDAR, calendar=SP, extend_to_business_day=False)
    assert deadline.end == D(2026, 3, 14)
    assert (
        deadline.steps[-1]
        == "14/03/2026 (sábado) é dia sem expediente, mas nesta contagem não há prorrogação"
    )
    assert "lei9784:art66_par1" not in deadline.citations


def test_olimpia_anniversary_extends_a_deadline_ending_on_2_march() -> None:
    assert days(D(2026, 2, 20), 10, OLIMPIA) == D(2026, 3, 3)
    assert days(D(2026, 2, 20), 10, SP) == D(2026, 3, 2)


def test_votuporanga_anniversary_extends_a_deadline_ending_on_8_august() -> None:
    deadline = count_days(
        D(2025, 7, 24), 15, counting=CALENDAR, calendar=VOTUPORANGA, extend_to_business_day=True
    )
    assert deadline.end == D(2025, 8, 11)
    assert "08/08/2025 (feriado municipal: Aniversário de Votuporanga)" in deadline.steps[-1]


def test_nine_july_extends_in_sao_paulo_but_not_in_minas() -> None:
    assert days(D(2026, 6, 29), 10, SP) == D(2026, 7, 10)
    assert days(D(2026, 6, 29), 10, MG) == D(2026, 7, 9)


def test_twenty_november_extends_from_2024_only() -> None:
    assert days(D(2026, 11, 10), 10, SP) == D(2026, 11, 23)
    assert days(D(2023, 11, 10), 10, SP) == D(2023, 11, 20)


def test_carnaval_counts_only_when_optional_holidays_are_included() -> None:
    with_optional = SP.extended(include_optional_holidays=True)
    assert days(D(2026, 2, 6), 10, SP) == D(2026, 2, 16)
    deadline = count_days(
        D(2026, 2, 6), 10, counting=CALENDAR, calendar=with_optional, extend_to_business_day=True
    )
    assert deadline.end == D(2026, 2, 19)
    assert "16/02/2026 (ponto facultativo: Carnaval)" in deadline.steps[-1]
    assert "18/02/2026 (ponto facultativo: Quarta-feira de Cinzas)" in deadline.steps[-1]


def test_christmas_week_with_an_early_closing_on_the_24th() -> None:
    eve = Closure(on=D(2026, 12, 24), name="Véspera de Natal", early_closing=True)
    city = SP.extended(closures=(eve,))
    deadline = count_days(D(2026, 12, 14), 10, counting=CALENDAR, calendar=city, extend_to_business_day=True)
    assert deadline.end == D(2026, 12, 28)
    assert "24/12/2026 (expediente encerrado antes da hora normal: Véspera de Natal)" in deadline.steps[-1]


def test_business_days_skip_weekends_and_municipal_holidays() -> None:
    deadline = count_days(D(2026, 2, 27), 5, counting=BUSINESS, calendar=OLIMPIA, extend_to_business_day=True)
    assert deadline.end == D(2026, 3, 9)
    assert deadline.steps == (
        "prazo de 5 dias úteis contados de 27/02/2026, excluído o dia do início; não contam os dias sem "
        "expediente 28/02/2026 (sábado), 01/03/2026 (domingo), 02/03/2026 (feriado municipal: Aniversário de "
        "Olímpia), 07/03/2026 (sábado), 08/03/2026 (domingo): termina em 09/03/2026",
    )
    assert deadline.citations == ("lei9784:art66", "cpc:art219")


def test_business_days_over_carnaval_depend_on_optional_holidays() -> None:
    with_optional = SP.extended(include_optional_holidays=True)
    assert days(D(2026, 2, 13), 3, SP, counting=BUSINESS) == D(2026, 2, 18)
    assert days(D(2026, 2, 13), 3, with_optional, counting=BUSINESS) == D(2026, 2, 23)


def test_business_deadline_ending_on_an_early_closing_moves_only_with_extension() -> None:
    city = SP.extended(closures=(Closure(on=D(2026, 12, 24), name="Véspera de Natal", early_closing=True),))
    assert days(D(2026, 12, 22), 2, city, counting=BUSINESS, extend=False) == D(2026, 12, 24)
    assert days(D(2026, 12, 22), 2, city, counting=BUSINESS, extend=True) == D(2026, 12, 28)


def test_days_between_matches_count_days() -> None:
    assert days_between(D(2026, 3, 6), D(2026, 3, 16), counting=CALENDAR, calendar=SP) == 10
    assert days_between(D(2026, 3, 16), D(2026, 3, 6), counting=CALENDAR, calendar=SP) == -10
    assert days_between(D(2026, 2, 27), D(2026, 3, 9), counting=BUSINESS, calendar=OLIMPIA) == 5
    assert days_between(D(2026, 3, 9), D(2026, 2, 27), counting=BUSINESS, calendar=OLIMPIA) == -5
    assert days_between(D(2026, 3, 9), D(2026, 3, 9), counting=BUSINESS, calendar=OLIMPIA) == 0


def test_certificate_age_on_the_60th_day() -> None:
    # Olímpia art. 9 IX "emissão máxima de 60 dias": issued 2026-01-05, presented 2026-03-06 → 60 days.
    assert days_between(D(2026, 1, 5), D(2026, 3, 6), counting=CALENDAR, calendar=SP) == 60


def test_deadline_timeliness_and_json() -> None:
    deadline = count_days(D(2026, 3, 4), 10, counting=CALENDAR, calendar=SP, extend_to_business_day=True)
    assert deadline.is_timely(D(2026, 3, 16))
    assert not deadline.is_timely(D(2026, 3, 17))
    data = deadline.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["end"] == "2026-03-16"
    assert deadline.explanation().startswith("prazo de 10 dias corridos")


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "10"])
def test_deadline_length_must_be_a_positive_whole_number(bad: object) -> None:
    with pytest.raises(LawcodeError) as caught:
        count_days(D(2026, 3, 6), bad, counting=CALENDAR, calendar=SP, extend_to_business_day=True)  # type: ignore[arg-type]
    assert caught.value.field == "n"
    assert "prazo inválido" in caught.value.message_pt


@pytest.mark.parametrize("bad", [None, "calendar_days", "corridos"])
def test_day_counting_must_be_explicit(bad: object) -> None:
    with pytest.raises(LawcodeError) as caught:
        count_days(D(2026, 3, 6), 10, counting=bad, calendar=SP, extend_to_business_day=True)  # type: ignore[arg-type]
    assert caught.value.field == "counting"
    assert "dias corridos ou dias úteis" in caught.value.message_pt


# --- months and years -------------------------------------------------------------------------------------


def months(start: dt.date, n: int, rounding: MonthRounding) -> dt.date:
    return count_months(start, n, rounding=rounding, calendar=SP, extend_to_business_day=False).end


def years(start: dt.date, n: int, rounding: MonthRounding) -> dt.date:
    return count_years(start, n, rounding=rounding, calendar=SP, extend_to_business_day=False).end


def test_31_january_plus_one_month_depends_on_the_rounding() -> None:
    last = count_months(D(2026, 1, 31), 1, rounding=LAST_DAY, calendar=SP, extend_to_business_day=False)
    nxt = count_months(D(2026, 1, 31), 1, rounding=NEXT_DAY, calendar=SP, extend_to_business_day=False)
    assert (last.end, nxt.end) == (D(2026, 2, 28), D(2026, 3, 1))
    assert last.steps[0] == (
        "prazo de 1 mês contado de 31/01/2026, de data a data; fevereiro de 2026 não tem dia 31: "
        "termina no último dia do mês, 28/02/2026"
    )
    assert nxt.steps[0].endswith("termina no dia imediato, 01/03/2026")
    assert last.citations[0] == "lei9784:art66_par3"
    assert nxt.citations[0] == "codigo_civil:art132_par3"


def test_month_end_in_a_leap_year() -> None:
    assert months(D(2024, 1, 31), 1, LAST_DAY) == D(2024, 2, 29)
    assert months(D(2024, 1, 31), 1, NEXT_DAY) == D(2024, 3, 1)
    assert months(D(2024, 1, 29), 1, NEXT_DAY) == D(2024, 2, 29)
    assert months(D(2026, 1, 29), 1, NEXT_DAY) == D(2026, 3, 1)


def test_thirty_first_into_a_thirty_day_month() -> None:
    assert months(D(2026, 3, 31), 1, LAST_DAY) == D(2026, 4, 30)
    assert months(D(2026, 3, 31), 1, NEXT_DAY) == D(2026, 5, 1)
    assert months(D(2026, 8, 31), 6, LAST_DAY) == D(2027, 2, 28)
    assert months(D(2026, 8, 31), 6, NEXT_DAY) == D(2027, 3, 1)


def test_months_cross_the_year_and_keep_matching_days() -> None:
    assert months(D(2025, 12, 15), 2, LAST_DAY) == D(2026, 2, 15)
    assert months(D(2026, 3, 6), 12, NEXT_DAY) == D(2027, 3, 6)
    assert months(D(2015, 12, 22), 60, LAST_DAY) == D(2020, 12, 22)


def test_29_february_plus_years() -> None:
    assert years(D(2024, 2, 29), 1, LAST_DAY) == D(2025, 2, 28)
    assert years(D(2024, 2, 29), 1, NEXT_DAY) == D(2025, 3, 1)
    assert years(D(2024, 2, 29), 4, NEXT_DAY) == D(2028, 2, 29)
    step = count_years(D(2024, 2, 29), 1, rounding=NEXT_DAY, calendar=SP, extend_to_business_day=False).steps[
        0
    ]
    assert step.startswith(
        "prazo de 1 ano contado de 29/02/2024, de data a data; fevereiro de 2025 não tem dia 29"
    )


def test_month_deadline_ending_on_a_holiday_is_extended_when_asked() -> None:
    deadline = count_months(
        D(2026, 1, 31), 1, rounding=NEXT_DAY, calendar=OLIMPIA, extend_to_business_day=True
    )
    assert deadline.end == D(2026, 3, 3)  # 01/03 Sunday, 02/03 Olímpia's anniversary
    assert deadline.citations == ("codigo_civil:art132_par3", "lei9784:art66_par1")


def test_permit_valid_twelve_months_ends_on_the_same_date() -> None:
    deadline = count_years(D(2026, 3, 6), 1, rounding=LAST_DAY, calendar=SP, extend_to_business_day=False)
    assert deadline.end == D(2027, 3, 6)
    assert "não há prorrogação" in deadline.steps[-1]  # 06/03/2027 is a Saturday


def test_add_months_goes_backwards_too() -> None:
    assert add_months(D(2026, 3, 31), -1, rounding=LAST_DAY) == D(2026, 2, 28)
    assert add_months(D(2026, 3, 31), -1, rounding=NEXT_DAY) == D(2026, 3, 1)
    assert add_months(D(2026, 3, 6), -6, rounding=LAST_DAY) == D(2025, 9, 6)


@pytest.mark.parametrize("bad", [None, "last_day_of_month"])
def test_rounding_is_required(bad: object) -> None:
    with pytest.raises(RoundingModeRequiredError) as caught:
        count_months(D(2026, 1, 31), 1, rounding=bad, calendar=SP, extend_to_business_day=False)  # type: ignore[arg-type]
    assert "último dia do mês" in caught.value.message_pt
    with pytest.raises(RoundingModeRequiredError):
        count_years(D(2026, 1, 31), 1, rounding=bad, calendar=SP, extend_to_business_day=False)  # type: ignore[arg-type]
    with pytest.raises(RoundingModeRequiredError):
        add_months(D(2026, 1, 31), 1, rounding=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("function", "required"),
    [
        (count_days, {"counting", "calendar", "extend_to_business_day"}),
        (count_months, {"rounding", "calendar", "extend_to_business_day"}),
        (count_years, {"rounding", "calendar", "extend_to_business_day"}),
        (add_months, {"rounding"}),
        (count_hours, {"calendar", "extend_to_business_day"}),
        (edital_notice_period, {"counting", "calendar"}),
        (days_between, {"counting", "calendar"}),
    ],
)
def test_counting_modes_are_keyword_only_without_defaults(function: object, required: set[str]) -> None:
    parameters = inspect.signature(function).parameters  # type: ignore[arg-type]
    for name in required:
        assert parameters[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert parameters[name].default is inspect.Parameter.empty


# --- hours ------------------------------------------------------------------------------------------------


def test_twenty_four_hours_across_midnight() -> None:
    assert add_hours(dt.datetime(2026, 3, 5, 22, 30), 24) == dt.datetime(2026, 3, 6, 22, 30)
    assert add_hours(dt.datetime(2026, 3, 5, 23, 0), 2) == dt.datetime(2026, 3, 6, 1, 0)
    assert add_hours(dt.datetime(2026, 12, 31, 23, 59), 1) == dt.datetime(2027, 1, 1, 0, 59)


def test_hours_are_elapsed_time_across_a_utc_offset_change() -> None:
    sao_paulo = ZoneInfo("America/Sao_Paulo")  # daylight saving began on 2018-11-04 at 00:00
    start = dt.datetime(2018, 11, 3, 12, 0, tzinfo=sao_paulo)
    end = add_hours(start, 24)
    assert end == dt.datetime(2018, 11, 4, 13, 0, tzinfo=sao_paulo)
    assert end.astimezone(dt.UTC) - start.astimezone(dt.UTC) == dt.timedelta(hours=24)
    assert end.utcoffset() == dt.timedelta(hours=-2)


def test_votuporanga_24_hours_ending_on_anniversary_saturday() -> None:
    start = dt.datetime(2026, 8, 7, 10, 0)
    plain = count_hours(start, 24, calendar=VOTUPORANGA, extend_to_business_day=False)
    moved = count_hours(start, 24, calendar=VOTUPORANGA, extend_to_business_day=True)
    assert plain.end == dt.datetime(2026, 8, 8, 10, 0)
    assert plain.steps[0] == (
        "prazo de 24 horas contado de 07/08/2026 às 10:00, minuto a minuto: termina em 08/08/2026 às 10:00"
    )
    assert plain.citations == ("codigo_civil:art132_par4",)
    assert moved.end == dt.datetime(2026, 8, 10, 10, 0)
    assert moved.steps[-1] == (
        "vencimento em dia sem expediente (sábado; feriado municipal: Aniversário de Votuporanga): "
        "prorrogado para 10/08/2026 às 10:00"
    )
    assert moved.is_timely(dt.datetime(2026, 8, 10, 9, 59))
    assert not moved.is_timely(dt.datetime(2026, 8, 10, 10, 1))
    assert moved.to_dict()["end"] == "2026-08-10T10:00:00"


def test_hours_must_be_positive() -> None:
    with pytest.raises(LawcodeError):
        add_hours(dt.datetime(2026, 3, 5, 22, 30), 0)


# --- edital (Olímpia art. 34 II) and vacatio legis (LC 95/1998 art. 8 §1) ---------------------------------


def test_edital_notice_is_deemed_five_calendar_days_after_publication() -> None:
    period = edital_notice_period(D(2026, 3, 2), 5, counting=CALENDAR, calendar=OLIMPIA)
    assert period.end == D(2026, 3, 7)  # a Saturday: ciência is not moved
    assert period.steps == (
        "edital publicado em 02/03/2026",
        "prazo de 5 dias corridos contados de 02/03/2026, excluído o dia da publicação: "
        "termina em 07/03/2026",
        "ciência considerada efetivada em 07/03/2026",
    )
    assert edital_deemed_notice(D(2026, 3, 2), 5, counting=CALENDAR, calendar=OLIMPIA) == D(2026, 3, 7)


def test_appeal_after_edital_runs_from_the_deemed_notice() -> None:
    ciencia = edital_deemed_notice(D(2026, 3, 2), 5, counting=CALENDAR, calendar=OLIMPIA)
    appeal = count_days(ciencia, 10, counting=CALENDAR, calendar=OLIMPIA, extend_to_business_day=True)
    assert appeal.end == D(2026, 3, 17)


def test_edital_in_business_days_skips_the_municipal_holiday() -> None:
    assert edital_deemed_notice(D(2026, 2, 27), 5, counting=BUSINESS, calendar=OLIMPIA) == D(2026, 3, 9)
    assert edital_deemed_notice(D(2026, 2, 27), 5, counting=BUSINESS, calendar=SP) == D(2026, 3, 6)


def test_patrocinio_in_force_on_22_december_2025() -> None:
    in_force = in_force_after_vacatio(D(2025, 9, 23), 90)
    assert in_force == D(2025, 12, 22)
    assert not D(2025, 12, 21) >= in_force
    assert D(2025, 12, 22) >= in_force
    period = vacatio_period(D(2025, 9, 23), 90)
    assert period.end == D(2025, 12, 21)
    assert period.citations == ("lc95:art8_par1",)
    assert period.steps[-1] == "entra em vigor no dia subsequente à consumação integral do prazo: 22/12/2025"


def test_vacatio_is_not_moved_off_a_weekend() -> None:
    # Published Friday 2026-01-02 with 45 days: last day Sunday 15/02, in force Monday 16/02 (Carnaval).
    assert in_force_after_vacatio(D(2026, 1, 2), 45) == D(2026, 2, 16)
    assert in_force_after_vacatio(D(2026, 1, 2), 1) == D(2026, 1, 3)


# --- citations resolve against lawcode/data/external_acts.yaml -------------------------------------------


def test_every_citation_the_deadlines_module_emits_is_a_declared_dispositivo() -> None:
    from lawcode import deadlines
    from lawcode.acts import external_acts

    acts = external_acts()
    emitted = {value for name, value in vars(deadlines).items() if name.isupper() and ":" in str(value)}
    assert len(emitted) == 8
    for ref in sorted(emitted):
        act_key, dispositivo = ref.split(":")
        assert act_key in acts, f"{ref}: act {act_key!r} missing from external_acts.yaml"
        assert acts[act_key].has(dispositivo), f"{ref}: dispositivo missing from external_acts.yaml"
