"""The catalog of document kinds each regime's law asks for, read from the engine, not kept by hand.

A kind belongs to a regime's catalog when the engine's document_validity judges it (a kind the law does not
mention is refused by the engine with InvalidFactError on ``kind``); the articles are the decision's citations.
Probing all kinds costs about a second per regime, so the result is cached per regime and day: the catalog
changes only when the law's wording does (a dated event the cache key covers).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache

from apps.lawconfig.engine import evaluate
from apps.tenancy.models import Municipality
from lawcode.errors import InvalidFactError, LawcodeError
from lawcode.facts import DOCUMENT_KINDS
from lawcode.facts import Document as DocumentFact

# Details every rule that reads them accepts, so the probe reaches the article instead of a missing detail.
_PROBE_DETAILS = {"court": "state", "third_party_bodily_coverage": True, "mentions_school_transport": True,
                  "mentions_transport": True}  # fmt: skip


@dataclass(frozen=True)
class CatalogEntry:
    kind: str
    label: str
    articles: tuple[str, ...]


def document_catalog(municipality: Municipality, regime_id: str, as_of: dt.date) -> tuple[CatalogEntry, ...]:
    """The kinds the regime's law asks for on ``as_of``, each with the articles that ask for it."""
    return _catalog(municipality, regime_id, as_of)


@lru_cache(maxsize=64)
def _catalog(municipality: Municipality, regime_id: str, as_of: dt.date) -> tuple[CatalogEntry, ...]:
    entries = []
    for kind, label in DOCUMENT_KINDS.items():
        articles = _articles(municipality, regime_id, kind, as_of)
        if articles is not None:
            entries.append(CatalogEntry(kind, label, articles))
    return tuple(entries)


def _articles(
    municipality: Municipality, regime_id: str, kind: str, as_of: dt.date
) -> tuple[str, ...] | None:
    probe = DocumentFact(kind=kind, issue_date=as_of, expiry_date=as_of + dt.timedelta(days=365), valid=True,
                         details=dict(_PROBE_DETAILS))  # fmt: skip
    try:
        decision = evaluate(municipality=municipality, question="document_validity", facts=probe, as_of=as_of,
                            regime_id=regime_id)  # fmt: skip
    except InvalidFactError as exc:
        return None if exc.field_path.split(".")[-1] == "kind" else ()
    except LawcodeError:
        return ()
    return tuple(str(citation) for citation in decision.citations)


def grouped_kind_choices(catalog: tuple[CatalogEntry, ...]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Choices for a select: the law's kinds first, every other kind after (optgroups)."""
    asked = {entry.kind for entry in catalog}
    return [
        ("Exigidos pela lei do regime", [(e.kind, e.label) for e in catalog]),
        ("Outros documentos", [(k, label) for k, label in DOCUMENT_KINDS.items() if k not in asked]),
    ]
