"""Every real regime folder loads and validates; the Patrocínio UFM is never invented."""

from __future__ import annotations

import datetime as dt

import pytest

from lawcode.errors import MissingParameterError, RegimeDefinitionError
from lawcode.registry import all_regimes, get_regime, regime_ids

EXPECTED = ["olimpia_sp_escolar", "patrocinio_mg_aplicativo", "votuporanga_sp_escolar"]


def test_discovers_every_regime_folder() -> None:
    assert regime_ids() == EXPECTED


@pytest.mark.parametrize("regime_id", EXPECTED)
def test_every_regime_loads_with_valid_citations(regime_id: str) -> None:
    regime = get_regime(regime_id)
    assert regime.id == regime_id
    assert regime.main_act.text is not None and regime.main_act.ids()
    for name, parameter in regime.parameters.items():
        for value in parameter.values:
            regime.citer.validate(value.cite)
        assert parameter.name == name


def test_all_regimes_is_sorted_by_id() -> None:
    assert [r.id for r in all_regimes()] == EXPECTED


def test_unknown_regime_lists_the_known_ones() -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        get_regime("olimpia")
    assert "olimpia_sp_escolar" in error.value.message


def test_patrocinio_ufm_is_unknown_and_says_what_to_configure() -> None:
    regime = get_regime("patrocinio_mg_aplicativo")
    with pytest.raises(MissingParameterError) as error:
        regime.parameters["ufm"].value_on(dt.date(2026, 3, 1), regime.id)
    assert error.value.name == "ufm" and "patrocinio_mg_aplicativo" in error.value.message


def test_votuporanga_amendment_dates_come_from_regime_yaml() -> None:
    law = get_regime("votuporanga_sp_escolar").main_act
    assert law.amendments[0].key == "lei6151_2018"
    assert law.text is not None
    assert law.text.wording("art4_par2", on=dt.date(2017, 1, 1)).version_key == "original"
    assert law.text.wording("art4_par2", on=dt.date(2019, 1, 1)).version_key == "lei6151_2018"


def test_patrocinio_is_not_in_force_during_its_vacatio_legis() -> None:
    from lawcode.errors import LawNotInForceError

    regime = get_regime("patrocinio_mg_aplicativo")
    assert regime.in_force == dt.date(2025, 12, 22)
    question = next(q for q in regime.questions() if q != "law_in_force")
    with pytest.raises(LawNotInForceError) as error:
        regime.evaluate(question, {}, as_of=dt.date(2025, 12, 21))
    assert "22/12/2025" in error.value.message_pt
