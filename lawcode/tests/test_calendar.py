"""LegalCalendar: weekends, national/state holidays (`holidays`), municipal holidays, closures, openings."""

from __future__ import annotations

import datetime as dt
from typing import Any

import holidays
import pytest

from lawcode.calendar import (
    Closure,
    LegalCalendar,
    MunicipalHoliday,
    Opening,
    easter_sunday,
    package_holidays,
)
from lawcode.errors import RegimeDefinitionError

D = dt.date
OLIMPIA_ANNIVERSARY = MunicipalHoliday(name="Aniversário de Olímpia", month=3, day=2)
VOTUPORANGA_ANNIVERSARY = MunicipalHoliday(name="Aniversário de Votuporanga", month=8, day=8)


@pytest.fixture
def sp() -> LegalCalendar:
    return LegalCalendar("SP")


@pytest.fixture
def mg() -> LegalCalendar:
    return LegalCalendar("MG")


def test_weekends_have_no_office_hours(sp: LegalCalendar) -> None:
    assert sp.reason_closed(D(2026, 3, 7)) == "sábado"
    assert sp.reason_closed(D(2026, 3, 8)) == "domingo"
    assert sp.is_business_day(D(2026, 3, 6))
    assert sp.reason_closed(D(2026, 3, 6)) is None


def test_national_holiday_is_named(sp: LegalCalendar) -> None:
    assert sp.reason_closed(D(2026, 12, 25)) == "feriado nacional: Natal"
    assert not sp.is_business_day(D(2026, 4, 3))  # Sexta-feira Santa


def test_weekend_and_holiday_on_the_same_day_give_both_reasons(sp: LegalCalendar) -> None:
    assert sp.reasons_closed(D(2026, 11, 15)) == ("domingo", "feriado nacional: Proclamação da República")


def test_nine_july_is_a_state_holiday_in_sao_paulo_only(sp: LegalCalendar, mg: LegalCalendar) -> None:
    assert sp.reason_closed(D(2026, 7, 9)) == "feriado estadual: Revolução Constitucionalista"
    assert mg.is_business_day(D(2026, 7, 9))


def test_minas_state_name_of_tiradentes_is_kept_apart_from_the_national_one(mg: LegalCalendar) -> None:
    assert mg.reasons_closed(D(2026, 4, 21)) == (
        "feriado nacional: Tiradentes",
        "feriado estadual: Execução de Tiradentes",
    )


def test_twenty_november_is_national_from_2024(sp: LegalCalendar, mg: LegalCalendar) -> None:
    assert (
        mg.reason_closed(D(2024, 11, 20)) == "feriado nacional: Dia Nacional de Zumbi e da Consciência Negra"
    )
    assert not sp.is_business_day(D(2026, 11, 20))
    assert sp.is_business_day(D(2023, 11, 20))  # a Monday, before Lei 14.759/2023 took effect


def test_carnaval_is_a_business_day_unless_optional_holidays_are_included(sp: LegalCalendar) -> None:
    with_optional = LegalCalendar("SP", include_optional_holidays=True)
    assert sp.is_business_day(D(2026, 2, 16))
    assert sp.is_business_day(D(2026, 2, 17))
    assert with_optional.reason_closed(D(2026, 2, 16)) == "ponto facultativo: Carnaval"
    assert with_optional.reason_closed(D(2026, 2, 18)) == "ponto facultativo: Quarta-feira de Cinzas"
    assert not with_optional.is_business_day(D(2026, 10, 28))  # Dia do Servidor Público


def test_olimpia_anniversary_on_2_march() -> None:
    olimpia = LegalCalendar("SP", municipal_holidays=(OLIMPIA_ANNIVERSARY,))
    assert olimpia.reason_closed(D(2026, 3, 2)) == "feriado municipal: Aniversário de Olímpia"
    assert LegalCalendar("SP").is_business_day(D(2026, 3, 2))


def test_votuporanga_anniversary_on_8_august() -> None:
    votuporanga = LegalCalendar("SP", municipal_holidays=(VOTUPORANGA_ANNIVERSARY,))
    assert votuporanga.reason_closed(D(2025, 8, 8)) == "feriado municipal: Aniversário de Votuporanga"
    assert votuporanga.reasons_closed(D(2026, 8, 8)) == (
        "sábado",
        "feriado municipal: Aniversário de Votuporanga",
    )


def test_movable_municipal_holidays_follow_easter() -> None:
    corpus_christi = MunicipalHoliday(name="Corpus Christi", easter_offset=60)
    city = LegalCalendar("SP", municipal_holidays=(corpus_christi,))
    assert city.reason_closed(D(2026, 6, 4)) == "feriado municipal: Corpus Christi"
    assert city.reason_closed(D(2025, 6, 19)) == "feriado municipal: Corpus Christi"
    assert city.is_business_day(D(2026, 6, 5))


def test_easter_sunday_known_years() -> None:
    assert easter_sunday(2024) == D(2024, 3, 31)
    assert easter_sunday(2025) == D(2025, 4, 20)
    assert easter_sunday(2026) == D(2026, 4, 5)
    assert easter_sunday(2038) == D(2038, 4, 25)


def test_recurring_holiday_respects_its_first_and_last_year() -> None:
    municipal_20_nov = MunicipalHoliday(
        name="Consciência Negra (municipal)", month=11, day=20, last_year=2015
    )
    city = LegalCalendar("SP", municipal_holidays=(municipal_20_nov,))
    assert city.reason_closed(D(2015, 11, 20)) == "feriado municipal: Consciência Negra (municipal)"
    assert city.is_business_day(D(2017, 11, 20))


def test_leap_day_holiday_occurs_only_in_leap_years() -> None:
    city = LegalCalendar("SP", municipal_holidays=(MunicipalHoliday(name="Dia bissexto", month=2, day=29),))
    assert city.reason_closed(D(2028, 2, 29)) == "feriado municipal: Dia bissexto"
    assert city.is_business_day(D(2027, 3, 1))


def test_dated_municipal_holiday_only_that_year() -> None:
    city = LegalCalendar("SP", municipal_holidays=(MunicipalHoliday(name="Centenário", on=D(2026, 5, 4)),))
    assert city.reason_closed(D(2026, 5, 4)) == "feriado municipal: Centenário"
    assert city.is_business_day(D(2027, 5, 4))


def test_holiday_moved_by_decree_uses_an_opening_and_a_closure() -> None:
    servidor = MunicipalHoliday(name="Dia do Servidor Público", month=10, day=28)
    moved = Closure(
        on=D(2025, 10, 31), name="Dia do Servidor Público (transferido)", basis="Decreto 19.292/2025"
    )
    reopened = Opening(on=D(2025, 10, 28), name="Feriado transferido para 31/10", basis="Decreto 19.292/2025")
    votuporanga = LegalCalendar("SP", municipal_holidays=(servidor,), closures=(moved,), openings=(reopened,))
    assert votuporanga.is_business_day(D(2025, 10, 28))
    assert votuporanga.reason_closed(D(2025, 10, 31)) == (
        "sem expediente: Dia do Servidor Público (transferido) (Decreto 19.292/2025)"
    )
    assert votuporanga.reason_closed(D(2026, 10, 28)) == "feriado municipal: Dia do Servidor Público"


def test_opening_never_opens_a_weekend() -> None:
    city = LegalCalendar("SP", openings=(Opening(on=D(2026, 3, 7), name="mutirão"),))
    assert city.reason_closed(D(2026, 3, 7)) == "sábado"


def test_early_closing_is_a_business_day_on_which_no_deadline_ends() -> None:
    eve = Closure(on=D(2026, 12, 24), name="Véspera de Natal", early_closing=True)
    city = LegalCalendar("SP", closures=(eve,))
    assert city.is_business_day(D(2026, 12, 24))
    assert city.reason_closed(D(2026, 12, 24)) is None
    assert not city.can_end_deadline(D(2026, 12, 24))
    assert city.reason_deadline_cannot_end(D(2026, 12, 24)) == (
        "expediente encerrado antes da hora normal: Véspera de Natal"
    )
    assert city.deadline_day_on_or_after(D(2026, 12, 24)) == D(2026, 12, 28)


def test_next_business_day_skips_holidays_and_weekends(sp: LegalCalendar) -> None:
    assert sp.next_business_day(D(2026, 4, 2)) == D(2026, 4, 6)  # Good Friday, Saturday, Sunday
    assert sp.next_business_day(D(2026, 7, 8)) == D(2026, 7, 10)  # 9 July
    assert sp.next_business_day(D(2026, 3, 5)) == D(2026, 3, 6)
    assert sp.business_day_on_or_after(D(2026, 3, 6)) == D(2026, 3, 6)
    assert sp.business_day_on_or_after(D(2026, 3, 7)) == D(2026, 3, 9)


def test_closed_days_lists_each_day_with_its_reason(sp: LegalCalendar) -> None:
    assert sp.closed_days(D(2026, 4, 2), D(2026, 4, 6)) == (
        (D(2026, 4, 3), "feriado nacional: Sexta-feira Santa"),
        (D(2026, 4, 4), "sábado"),
        (D(2026, 4, 5), "domingo"),
    )


def test_extended_adds_configured_closures_without_changing_the_original() -> None:
    base = LegalCalendar("SP", municipal_holidays=(OLIMPIA_ANNIVERSARY,))
    strike = Closure(on=D(2026, 5, 4), name="Ponto facultativo", basis="Decreto municipal 1/2026")
    configured = base.extended(closures=(strike,), include_optional_holidays=True)
    assert (
        configured.reason_closed(D(2026, 5, 4))
        == "sem expediente: Ponto facultativo (Decreto municipal 1/2026)"
    )
    assert configured.reason_closed(D(2026, 3, 2)) == "feriado municipal: Aniversário de Olímpia"
    assert not configured.is_business_day(D(2026, 2, 16))
    assert base.is_business_day(D(2026, 5, 4))


def test_unknown_uf_is_rejected_with_a_portuguese_message() -> None:
    with pytest.raises(RegimeDefinitionError) as caught:
        LegalCalendar("XX")
    assert "UF desconhecida" in caught.value.message_pt


def test_holiday_years_are_looked_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, object]] = []
    original = holidays.country_holidays

    def counting_lookup(*args: Any, **kwargs: Any) -> Any:
        calls.append((kwargs.get("subdiv"), kwargs.get("years")))
        return original(*args, **kwargs)

    monkeypatch.setattr(holidays, "country_holidays", counting_lookup)
    package_holidays.cache_clear()
    city = LegalCalendar("SP")
    for day in range(1, 32):
        city.is_business_day(D(2026, 1, day))
    city.is_business_day(D(2027, 1, 4))
    LegalCalendar("SP", closures=(Closure(on=D(2026, 5, 4), name="Greve"),)).is_business_day(D(2026, 5, 4))
    assert calls == [(None, 2026), ("SP", 2026), (None, 2027), ("SP", 2027)]


def test_opening_also_cancels_an_early_closing() -> None:
    eve = Closure(on=D(2026, 12, 24), name="Véspera de Natal", early_closing=True)
    full_day = Opening(on=D(2026, 12, 24), name="Expediente integral", basis="Decreto 2/2026")
    city = LegalCalendar("SP", closures=(eve,), openings=(full_day,))
    assert city.can_end_deadline(D(2026, 12, 24))
