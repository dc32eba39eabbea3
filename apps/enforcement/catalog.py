"""The regime's infraction catalog as the agent's form shows it: search by words, citation rendered on a date."""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass

import lawcode
from lawcode.regime_files import CatalogEntry


@dataclass(frozen=True)
class Infraction:
    code: str
    title: str
    description: str
    cite: str
    cite_pt: str
    severity: str


def _fold(text: str) -> str:
    """Lower case without accents, so «higiene» finds «Higiene» and «transito» finds «trânsito»."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _entry(regime_id: str, code: str) -> CatalogEntry | None:
    return lawcode.get_regime(regime_id).catalog.get(code)


def _infraction(regime_id: str, entry: CatalogEntry, on: dt.date) -> Infraction:
    citation = lawcode.get_regime(regime_id).resolve_citation(entry.cite, on)
    return Infraction(
        entry.code, entry.title, entry.description, entry.cite, citation.render(), entry.severity
    )


def infraction(regime_id: str, code: str, on: dt.date) -> Infraction | None:
    """The catalog entry ``code`` of the regime with its citation worded on ``on``; None when not in the catalog."""
    entry = _entry(regime_id, code)
    return None if entry is None else _infraction(regime_id, entry, on)


def search(regime_id: str, words: str, on: dt.date) -> list[Infraction]:
    """Entries whose code, title, description or keywords contain every word typed (accents ignored)."""
    terms = _fold(words).split()
    found = []
    for entry in lawcode.get_regime(regime_id).catalog.values():
        haystack = _fold(" ".join((entry.code, entry.title, entry.description, *entry.keywords)))
        if all(term in haystack for term in terms):
            found.append(_infraction(regime_id, entry, on))
    return found


def clandestine_infraction(regime_id: str, on: dt.date) -> Infraction | None:
    """The entry the regime declares for transport without authorization (procedure.yaml), if it names one."""
    code = lawcode.get_regime(regime_id).procedure.clandestine.infraction
    return None if code is None else infraction(regime_id, code, on)
