"""Shared tables (the UFESP) beyond the shipped CSV: a value handed over in the Config, cited to an act entered
outside the code (Config.acts), and the CSV reader the installation's loading command uses."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

import lawcode
from lawcode.config import Config, DeclaredAct
from lawcode.errors import MissingParameterError, RegimeDefinitionError, UnknownDispositivoError
from lawcode.facts import FineFacts
from lawcode.fiscal import UFESP_FILE, read_table_csv, shared_parameters

OLIMPIA = "olimpia_sp_escolar"
FINE = FineFacts(quantity=Decimal("15"), unit="ufesp", infraction_date=dt.date(2027, 1, 11))
CITED = "Comunicado DICAR-90/26 da SEFAZ-SP, publicado em 18/12/2026"
ACT = {
    "key": "ato_valor_externo_7",
    "title": "Comunicado DICAR-90/26 da SEFAZ-SP",
    "cite_as": CITED,
    "published": "2026-12-18",
    "in_force": "2027-01-01",
}


def _config(**extra: object) -> Config:
    return Config.from_dict(
        {
            "parameters": {
                "ufesp": [{"from": "2027-01-01", "value": "40.12", "cite": "ato_valor_externo_7"}]
            },
            "acts": [ACT],
            **extra,
        }
    )


def test_the_2027_ufesp_is_missing_without_a_value_and_cited_to_the_entered_act_with_one() -> None:
    with pytest.raises(MissingParameterError):
        lawcode.evaluate(OLIMPIA, "fine_amount", FINE, as_of=dt.date(2027, 1, 11))
    decision = lawcode.evaluate(OLIMPIA, "fine_amount", FINE, as_of=dt.date(2027, 1, 11), config=_config())
    assert decision.result["brl"] == Decimal("601.80")
    assert CITED in decision.explain()


def test_an_entered_act_survives_the_round_trip_of_a_stored_config() -> None:
    config = _config()
    again = Config.from_dict(config.to_dict())
    assert again == config and again.acts == (
        DeclaredAct("ato_valor_externo_7", ACT["title"], CITED, dt.date(2026, 12, 18), dt.date(2027, 1, 1)),
    )


def test_a_value_citing_an_act_nobody_declared_is_refused() -> None:
    config = Config.from_dict(
        {"parameters": {"ufesp": [{"from": "2027-01-01", "value": "40.12", "cite": "ato_valor_externo_7"}]}}
    )
    with pytest.raises(UnknownDispositivoError):
        lawcode.evaluate(OLIMPIA, "fine_amount", FINE, as_of=dt.date(2027, 1, 11), config=config)


def test_an_entered_act_may_not_take_the_key_of_a_shipped_one() -> None:
    clash = Config.from_dict({"acts": [{**ACT, "key": "ctb"}]})
    with pytest.raises(RegimeDefinitionError):
        lawcode.get_regime(OLIMPIA).citer_for(clash)


def test_the_shipped_table_reads_as_the_shared_ufesp() -> None:
    rows = read_table_csv(UFESP_FILE)
    assert rows[-1].valid_from == dt.date(2026, 1, 1) and rows[-1].value == Decimal("38.42")
    assert rows[-1].act == "Comunicado DICAR-88/25 da SEFAZ-SP" and rows[-1].published == dt.date(
        2025, 12, 17
    )
    assert shared_parameters()["ufesp"].values[-1].value == Decimal("38.42")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("ano,valor\n2027,40.12\n", "faltam as colunas"),
        ('year,value_brl,source\n2027,"40,12",x\n', "value_brl: informe um valor positivo"),
        ("year,value_brl,source\n27,40.12,x\n", "year: informe o ano"),
        ("year,value_brl,source\n2027,40.12,\n", "source: informe o ato"),
        ("year,value_brl,source\n2027,40.12,x\n2027,40.13,y\n", "aparece duas vezes"),
    ],
)
def test_a_bad_table_file_is_refused_naming_the_column(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "ufesp.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RegimeDefinitionError) as refused:
        read_table_csv(path)
    assert message in refused.value.message_pt
