"""calendar.yaml: schema, precise errors, and every regime's file loads."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from lawcode.calendar import Closure, LegalCalendar
from lawcode.errors import RegimeDefinitionError
from lawcode.scenarios import load_yaml_with_lines
from lawcode.yamlsource import load_yaml, load_yaml_text

D = dt.date
REGIMES = Path(__file__).resolve().parents[1] / "regimes"
WHERE = "lawcode/regimes/exemplo/calendar.yaml"

VOTUPORANGA_LIKE = """\
include_optional_holidays: false
municipal_holidays:
  - name: Aniversário de Votuporanga
    month: 8
    day: 8
    confidence: S
    source: diariodevotuporanga.com.br (2024)
  - name: Sexta-feira da Paixão (municipal)
    easter_offset: -2
  - name: Dia do Servidor Público
    month: 10
    day: 28
    basis: Lei Complementar 187/2011, art. 220
closures:
  - date: 2025-10-31
    name: Dia do Servidor Público (transferido)
    basis: Decreto nº 19.292/2025
  - date: 2026-12-24
    name: Véspera de Natal
    early_closing: true
openings:
  - date: 2025-10-28
    name: Feriado transferido para 31/10
    basis: Decreto nº 19.292/2025
"""


def load(text: str, *, extra: tuple[Closure, ...] = ()) -> LegalCalendar:
    return LegalCalendar.from_yaml_data("SP", yaml.safe_load(text), WHERE, extra_closures=extra)


def error_for(text: str) -> RegimeDefinitionError:
    """The error for `text`, checked to be the same with both line-marking YAML loaders of lawcode."""
    errors = []
    for loader in (load_yaml_with_lines, load_yaml_text):
        with pytest.raises(RegimeDefinitionError) as caught:
            LegalCalendar.from_yaml_data("SP", loader(text, WHERE), WHERE)
        errors.append(caught.value)
    assert (errors[0].line, errors[0].field) == (errors[1].line, errors[1].field)
    return errors[0]


def test_full_schema_loads() -> None:
    city = load(VOTUPORANGA_LIKE)
    assert city.reason_closed(D(2025, 8, 8)) == "feriado municipal: Aniversário de Votuporanga"
    assert city.municipal_holidays[0].confidence == "S"
    assert city.municipal_holidays[2].basis == "Lei Complementar 187/2011, art. 220"
    assert city.is_business_day(D(2025, 10, 28))
    assert not city.is_business_day(D(2025, 10, 31))
    assert not city.can_end_deadline(D(2026, 12, 24))
    assert not city.include_optional_holidays


def test_empty_file_and_empty_lists_give_a_plain_state_calendar() -> None:
    assert LegalCalendar.from_yaml_data("MG", None, WHERE) == LegalCalendar("MG")
    assert load("municipal_holidays: []\nclosures: []\n") == LegalCalendar("SP")


def test_iso_date_strings_are_accepted() -> None:
    city = load("closures:\n  - date: '2026-05-04'\n    name: Ponto facultativo\n")
    assert city.reason_closed(D(2026, 5, 4)) == "sem expediente: Ponto facultativo"


def test_extra_closures_from_configuration_are_added() -> None:
    city = load("closures: []\n", extra=(Closure(on=D(2026, 5, 4), name="Greve"),))
    assert city.reason_closed(D(2026, 5, 4)) == "sem expediente: Greve"


def test_include_optional_holidays_can_be_set_in_the_file() -> None:
    assert not load("include_optional_holidays: true\n").is_business_day(D(2026, 2, 17))


def test_unknown_top_level_key_names_file_line_and_allowed_keys() -> None:
    error = error_for("municipal_holidays: []\nferiados: []\n")
    assert error.file == WHERE
    assert error.line == 2
    assert error.field == "calendar.yaml.feriados"
    assert error.hint is not None and "municipal_holidays" in error.hint
    assert "campo desconhecido 'feriados'" in error.message_pt


def test_unknown_holiday_key_is_reported_on_its_line() -> None:
    error = error_for("municipal_holidays:\n  - name: X\n    month: 3\n    day: 2\n    dia: 2\n")
    assert (error.line, error.field) == (5, "municipal_holidays[0].dia")


def test_holiday_needs_exactly_one_way_to_fall() -> None:
    both = error_for("municipal_holidays:\n  - name: X\n    month: 3\n    day: 2\n    date: 2026-03-02\n")
    neither = error_for("municipal_holidays:\n  - name: X\n")
    day_only = error_for("municipal_holidays:\n  - name: X\n    day: 2\n")
    for error in (both, neither, day_only):
        assert error.field == "municipal_holidays[0]"
        assert error.line == 2
        assert "easter_offset" in error.message_pt


def test_impossible_month_day_is_rejected() -> None:
    error = error_for("municipal_holidays:\n  - name: X\n    month: 2\n    day: 30\n")
    assert (error.line, error.field) == (4, "municipal_holidays[0].day")
    assert "dia 30 não existe no mês 2" in error.message_pt


def test_month_out_of_range_is_rejected() -> None:
    error = error_for("municipal_holidays:\n  - name: X\n    month: 13\n    day: 1\n")
    assert error.field == "municipal_holidays[0].month"


def test_missing_name_is_rejected() -> None:
    error = error_for("closures:\n  - date: 2026-05-04\n")
    assert error.field == "closures[0].name"
    assert "texto não vazio" in error.message_pt


def test_bad_date_text_is_rejected() -> None:
    error = error_for("closures:\n  - date: 04/05/2026\n    name: X\n")
    assert (error.line, error.field) == (2, "closures[0].date")
    assert "AAAA-MM-DD" in error.message_pt


def test_early_closing_must_be_a_boolean() -> None:
    error = error_for("closures:\n  - date: 2026-05-04\n    name: X\n    early_closing: sim\n")
    assert (error.line, error.field) == (4, "closures[0].early_closing")


def test_confidence_grade_is_a_closed_list() -> None:
    error = error_for("municipal_holidays:\n  - name: X\n    month: 3\n    day: 2\n    confidence: alta\n")
    assert error.field == "municipal_holidays[0].confidence"
    assert error.hint is not None and "V, S, M, NF" in error.hint


def test_years_out_of_order_are_rejected() -> None:
    text = "municipal_holidays:\n  - name: X\n    month: 3\n    day: 2\n    first_year: 2020\n"
    text += "    last_year: 2010\n"
    assert error_for(text).field == "municipal_holidays[0].last_year"


def test_a_section_that_is_not_a_list_is_rejected() -> None:
    error = error_for("closures:\n  date: 2026-05-04\n")
    assert (error.line, error.field) == (1, "closures")


def test_plain_yaml_without_line_marks_still_names_the_field() -> None:
    with pytest.raises(RegimeDefinitionError) as caught:
        LegalCalendar.from_yaml_data("SP", {"closures": [{"name": "X"}]}, WHERE)
    assert caught.value.field == "closures[0].date"
    assert caught.value.line is None
    assert caught.value.message.startswith(WHERE)


def _regime_calendars() -> list[Path]:
    return sorted(REGIMES.glob("*/calendar.yaml"))


@pytest.mark.parametrize("path", _regime_calendars(), ids=lambda path: path.parent.name)
def test_every_regime_calendar_loads(path: Path) -> None:
    uf = _uf_of(path.parent)
    data: Any = load_yaml(path)  # the loader lawcode.registry uses
    city = LegalCalendar.from_yaml_data(uf, data, str(path))
    for holiday in city.municipal_holidays:
        day = holiday.date_in(2026)
        assert day is None or not city.is_business_day(day)


def _uf_of(folder: Path) -> str:
    regime = yaml.safe_load((folder / "regime.yaml").read_text(encoding="utf-8")) or {}
    declared = regime.get("uf") or regime.get("state")
    if isinstance(declared, str):
        return declared
    match = re.search(r"_([a-z]{2})_", folder.name)
    assert match, f"cannot tell the UF of {folder.name}"
    return match.group(1).upper()


def test_on_as_a_key_is_explained_because_yaml_reads_it_as_true() -> None:
    error = error_for("closures:\n  - on: 2025-10-31\n    name: X\n")
    assert (error.line, error.field) == (2, "closures[0]")
    assert "'date:'" in error.message_pt


def test_configuration_in_the_same_schema_extends_a_regime_calendar() -> None:
    regime = load("municipal_holidays:\n  - name: Aniversário\n    month: 3\n    day: 2\n")
    config = {
        "closures": [{"date": "2026-12-24", "name": "Véspera de Natal", "early_closing": True}],
        "include_optional_holidays": True,
    }
    configured = regime.extended_with_data(config, "Config.calendar")
    assert not configured.can_end_deadline(D(2026, 12, 24))
    assert not configured.is_business_day(D(2026, 3, 2))
    assert not configured.is_business_day(D(2026, 2, 16))
    assert regime.extended_with_data({}, "Config.calendar") == regime


def test_configuration_errors_name_the_configuration() -> None:
    with pytest.raises(RegimeDefinitionError) as caught:
        LegalCalendar("SP").extended_with_data({"closures": [{"date": "2026-12-24"}]}, "Config.calendar")
    assert caught.value.file == "Config.calendar"
    assert caught.value.field == "closures[0].name"
