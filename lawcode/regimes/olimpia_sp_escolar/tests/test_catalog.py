"""The infraction catalog matches arts. 22 to 27 one to one, and the penalty table knows every class."""

from __future__ import annotations

import re

from lawcode.regimes.olimpia_sp_escolar.rules.penalty_table import (
    CLANDESTINE_CODE,
    SEVERITY_TABLE,
    SPECIAL_INCISOS,
)
from lawcode.registry import get_regime

from .helpers import REGIME_ID, law_ids

CLASS_OF_ARTICLE = {"art22": "leve", "art23": "media", "art24": "grave", "art25": "gravissima"}


def test_every_inciso_of_arts_22_to_25_has_exactly_one_infraction() -> None:
    regime = get_regime(REGIME_ID)
    incisos = [i for i in law_ids() if re.fullmatch(r"art2[2-5]_inc[IVX]+", i)]
    cited = sorted(entry.cite for entry in regime.catalog.values() if entry.code != CLANDESTINE_CODE)
    assert sorted(incisos) == cited


def test_codes_follow_the_article_and_inciso_they_cite() -> None:
    for code, entry in get_regime(REGIME_ID).catalog.items():
        expected = "OLI-" + entry.cite.removeprefix("art").replace("_inc", "-")
        assert code == expected, f"{code} cites {entry.cite}"


def test_severity_is_the_class_of_the_article() -> None:
    for entry in get_regime(REGIME_ID).catalog.values():
        article = entry.cite.split("_")[0]
        assert entry.severity == CLASS_OF_ARTICLE.get(article, "none"), entry.code
        assert entry.severity in SEVERITY_TABLE or entry.code == CLANDESTINE_CODE


def test_special_incisos_exist_in_the_catalog() -> None:
    catalog = get_regime(REGIME_ID).catalog
    assert set(SPECIAL_INCISOS) <= set(catalog)
    assert {catalog[code].severity for code in SPECIAL_INCISOS} == {"grave", "gravissima"}


def test_every_entry_has_a_portuguese_title_and_keywords() -> None:
    for entry in get_regime(REGIME_ID).catalog.values():
        assert entry.title and entry.keywords, entry.code
