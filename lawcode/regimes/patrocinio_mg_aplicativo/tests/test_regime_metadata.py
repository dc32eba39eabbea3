"""regime.yaml, the catalog and the rules agree with the law text and with each other."""

from __future__ import annotations

import datetime as dt

from lawcode.deadlines import in_force_after_vacatio
from lawcode.regime import Regime

from .conftest import PACKAGE


def test_in_force_date_is_the_computed_vacatio(regime: Regime) -> None:
    published = regime.published
    assert published == dt.date(2025, 9, 23)
    vacatio = regime.parameters["vacatio_legis_days"].value_on(published, regime.id).value
    assert in_force_after_vacatio(published, vacatio) == regime.in_force == dt.date(2025, 12, 22)


def test_substantive_parameters_take_effect_with_the_law(regime: Regime) -> None:
    for name, parameter in regime.parameters.items():
        if name in ("vacatio_legis_days", "ufesp") or not parameter.values:
            continue
        assert parameter.values[0].effective_from == regime.in_force, name


def test_municipality_identifiers(regime: Regime) -> None:
    assert (regime.municipality, regime.uf, regime.ibge, regime.prefix) == (
        "Patrocínio",
        "MG",
        "3148103",
        "PAT",
    )


def test_ufm_has_no_invented_value(regime: Regime) -> None:
    assert regime.parameters["ufm"].values == ()


def test_every_catalog_code_uses_the_prefix_and_names_its_dispositivo(regime: Regime) -> None:
    for code, entry in regime.catalog.items():
        assert code.startswith("PAT-"), code
        article = entry.cite.split("_")[0].removeprefix("art")
        assert code.split("-")[1] == article.rstrip("A") or code.startswith(f"PAT-{article[:-1]}-A"), code


def test_sanction_rule_declares_every_catalog_citation(regime: Regime) -> None:
    declared = set(regime.rules["sanction"].cites)
    assert {entry.cite for entry in regime.catalog.values()} <= declared


def test_rules_are_registered_for_the_questions_the_law_governs(regime: Regime) -> None:
    assert regime.questions() == sorted(
        [
            "appeal_deadline",
            "ciencia_date",
            "cure_deadline",
            "document_standing",
            "document_validity",
            "driver_registration",
            "fine_amount",
            "inspection_calendar",
            "inspection_scheduling",
            "judgment_deadline",
            "law_in_force",
            "notice_limit",
            "permit_validity",
            "sanction",
            "temporary_vehicle",
            "vehicle_permit",
        ]
    )
    assert all(spec.module.startswith(PACKAGE) for spec in regime.rules.values())


def test_every_dispositivo_is_implemented_or_not_computable(regime: Regime) -> None:
    implemented = {ref for spec in regime.rules.values() for ref in spec.cites}
    implemented |= {entry.cite for entry in regime.catalog.values()}
    implemented |= {value.cite for p in regime.parameters.values() for value in p.values}
    both = implemented & set(regime.not_computable)
    assert not both, f"listed as not computable but implemented: {sorted(both)}"
    missing = [d for d in regime.main_act.ids() if d not in implemented and d not in regime.not_computable]
    assert missing == []


def test_the_ufm_is_unknown_and_says_what_to_configure(regime: Regime) -> None:
    """The law fixes values in UFM without the UFM's value: never invented (moved from the core tests)."""
    import pytest

    from lawcode.errors import MissingParameterError

    with pytest.raises(MissingParameterError) as error:
        regime.parameters["ufm"].value_on(dt.date(2026, 3, 1), regime.id)
    assert error.value.name == "ufm" and regime.id in error.value.message


def test_the_ufm_is_configurable(regime: Regime) -> None:
    assert regime.parameters["ufm"].configurable
