"""The data files of the Votuporanga regime: every citation, parameter and interpretation is load-bearing."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from decimal import Decimal

import pytest

from lawcode.config import Config
from lawcode.errors import (
    CitationMissingError,
    MissingParameterError,
    UnknownDispositivoError,
    UnknownInterpretationError,
)
from lawcode.regime import Regime
from lawcode.texts import LawText

from .facts_builders import infraction, permit

CAP_60 = Config.from_dict(
    {"parameters": {"fleet_cap": [{"from": "2018-03-20", "value": 60, "cite": "art4A"}]}}
)
PENALTY_KINDS = {"ladder", "fixed_fine", "direct_cassation"}


def _text(regime: Regime) -> LawText:
    text = regime.main_act.text
    assert text is not None
    return text


def test_it_parses_every_dispositivo_with_both_wordings(regime: Regime) -> None:
    text = _text(regime)
    assert len(text.ids()) == 94
    for amended in ("art1", "art1_parun", "art4", "art4_par2", "art19", "art21"):
        versions = [w.version_key for w in text.get(amended).versions]
        assert versions == ["original", "lei6151_2018"], amended
    assert text.wording("art4_par2", on=dt.date(2018, 3, 19)).version_key == "original"
    assert text.wording("art4_par2", on=dt.date(2018, 3, 20)).version_key == "lei6151_2018"


def test_every_catalog_entry_cites_a_real_dispositivo_matching_its_code(regime: Regime) -> None:
    ids = set(_text(regime).ids())
    for entry in regime.catalog.values():
        assert entry.cite in ids, entry.code
        match = re.fullmatch(r"VOT-(\d+)-([IVX]+|PAR\d)", entry.code)
        assert match, entry.code
        article, part = match.groups()
        expected = f"art{article}_par{part[3:]}" if part.startswith("PAR") else f"art{article}_inc{part}"
        assert entry.cite == expected, entry.code
        assert entry.extra["penalty"] in PENALTY_KINDS, entry.code
        assert isinstance(entry.extra["curable"], bool), entry.code


def test_the_catalog_holds_the_duties_prohibitions_and_cassation_grounds(regime: Regime) -> None:
    cites = {entry.cite for entry in regime.catalog.values()}
    expected = {f"art9_inc{n}" for n in ("I", "II", "III", "IV", "V")}
    expected |= {f"art10_inc{n}" for n in ("I", "II", "III", "IV", "V")}
    expected |= {f"art15_inc{n}" for n in ("II", "III", "IV", "V", "VI", "VII", "VIII", "IX")}
    expected.add("art4_par5")
    assert cites == expected


def test_removing_a_parameter_value_breaks_the_permit(
    broken_copy: Callable[[str, Callable[[str], str]], Regime],
) -> None:
    def drop_age(text: str) -> str:
        return text.replace(
            "  values:\n    - from: 2015-12-22\n      value: 15\n      cite: art4_incII_c\n", "  values: []\n"
        )

    regime = broken_copy("parameters.yaml", drop_age)
    with pytest.raises(MissingParameterError) as error:
        regime.evaluate("vehicle_permit", permit(), as_of=dt.date(2026, 3, 2), config=CAP_60)
    assert error.value.name == "max_vehicle_age"


def test_removing_a_citation_fails_loading(
    broken_copy: Callable[[str, Callable[[str], str]], Regime],
) -> None:
    with pytest.raises(CitationMissingError):
        broken_copy("parameters.yaml", lambda text: text.replace("      cite: art13\n", "", 1))


def test_citing_a_dispositivo_the_law_lacks_fails_loading(
    broken_copy: Callable[[str, Callable[[str], str]], Regime],
) -> None:
    with pytest.raises(UnknownDispositivoError):
        broken_copy("catalog.yaml", lambda text: text.replace("cite: art10_incV", "cite: art10_incVI"))


def test_removing_an_interpretation_breaks_the_driver_check(
    broken_copy: Callable[[str, Callable[[str], str]], Regime],
) -> None:
    def drop(text: str) -> str:
        start = text.index("INT-VOT-ART4-I-C:")
        end = text.index("INT-VOT-VEHICLE-AGE:")
        return text[:start] + text[end:]

    regime = broken_copy("interpretations.yaml", drop)
    with pytest.raises(UnknownInterpretationError):
        regime.evaluate("driver_registration", permit()["drivers"][0], as_of=dt.date(2026, 3, 2))


def test_ufm_values_are_marked_secondary_and_end_before_unknown_years(regime: Regime) -> None:
    ufm = regime.parameters["ufm"]
    known = [v for v in ufm.values if v.value is not None]
    assert [(v.effective_from.year, v.value) for v in known] == [
        (2023, Decimal("4.74")),
        (2024, Decimal("4.97")),
        (2025, Decimal("5.20")),
        (2026, Decimal("5.45")),
    ]
    assert all(v.confidence == "S" for v in known)
    with pytest.raises(MissingParameterError):
        ufm.value_on(dt.date(2027, 1, 1), regime.id)
    with pytest.raises(MissingParameterError):
        ufm.value_on(dt.date(2022, 12, 31), regime.id)


def test_the_fleet_cap_has_no_value_until_the_municipality_configures_it(regime: Regime) -> None:
    with pytest.raises(MissingParameterError) as error:
        regime.evaluate("vehicle_permit", permit(), as_of=dt.date(2026, 3, 2))
    assert error.value.name == "fleet_cap"


def test_municipal_calendar_closures(regime: Regime) -> None:
    calendar = regime.calendar_for(Config())
    assert not calendar.is_business_day(dt.date(2025, 8, 8))  # aniversário
    assert calendar.is_business_day(
        dt.date(2025, 10, 28)
    )  # Dia do Servidor transferido (Decreto 19.292/2025)
    assert not calendar.is_business_day(dt.date(2025, 10, 31))
    assert not calendar.is_business_day(dt.date(2026, 10, 28))


def test_same_facts_same_date_give_identical_decisions(regime: Regime) -> None:
    facts = infraction(
        "VOT-10-II",
        "2026-03-02",
        [
            {
                "infraction_code": "VOT-9-I",
                "infraction_date": "2025-04-10",
                "final_on": "2025-05-10",
                "penalties": ["warning"],
            }
        ],
    )
    first = regime.evaluate("sanction", facts, as_of=dt.date(2026, 3, 10)).to_dict()
    second = regime.evaluate("sanction", facts, as_of=dt.date(2026, 3, 10)).to_dict()
    assert first == second
    assert first["result"]["fine_brl"] == "463.25"


def test_amendment_dates_come_from_regime_yaml(regime: Regime) -> None:
    """Lei 6.151/2018's wording of art. 4º § 2º holds from its in_force date (moved from the core tests)."""
    law = regime.main_act
    assert law.amendments[0].key == "lei6151_2018"
    assert law.text is not None
    assert law.text.wording("art4_par2", on=dt.date(2017, 1, 1)).version_key == "original"
    assert law.text.wording("art4_par2", on=dt.date(2019, 1, 1)).version_key == "lei6151_2018"


def test_the_numbers_the_municipality_sets_are_configurable(regime: Regime) -> None:
    """Art. 4º-A leaves the fleet cap to a decree; the UFM is the municipality's table."""
    assert regime.parameters["fleet_cap"].configurable and regime.parameters["ufm"].configurable
    assert not regime.parameters["max_vehicle_age"].configurable
