"""The document kinds each regime declares (its documents.yaml), read from the engine, never kept here.

A municipality accepts the kinds its regimes declare; each kind says who presents it, the typed details it
carries and how its validity is decided. Labels, the form's choices and detail fields, and the catalog page
all come from these declarations, so a new kind (a medical certificate…) needs no code and no migration.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

import lawcode
from apps.tenancy.models import Municipality
from lawcode.documents import PRESENTER_LABELS, DocumentKind

# Which registry owner may hold a document presented by whom (a person is an operator, driver or attendant).
OWNER_PRESENTERS = {
    "person": frozenset({"operator", "driver", "attendant"}),
    "company": frozenset({"operator", "company"}),
    "vehicle": frozenset({"vehicle"}),
    "operator": frozenset({"operator"}),
}
VALIDITY_TEXT = {
    "document_validity": "calculada pela regra do regime",
    "printed_expiry": "a validade impressa no documento",
}


@dataclass(frozen=True)
class CatalogEntry:
    kind: str
    label: str
    articles: tuple[str, ...]
    presenters: str
    validity: str


def regime_kinds(regime_id: str) -> dict[str, DocumentKind]:
    """The kinds regime ``regime_id`` declares, in declaration order."""
    return dict(lawcode.get_regime(regime_id).vocabulary.documents.kinds)


def municipality_kinds(
    municipality: Municipality, regime_ids: Iterable[str] | None = None
) -> dict[str, DocumentKind]:
    """Every kind the municipality's regimes (or ``regime_ids``) declare; the first regime's wording wins."""
    kinds: dict[str, DocumentKind] = {}
    for regime_id in regime_ids if regime_ids is not None else municipality.regimes:
        for key, kind in regime_kinds(regime_id).items():
            kinds.setdefault(key, kind)
    return kinds


def age_limited_kinds(municipality: Municipality) -> dict[str, DocumentKind]:
    """The kinds any of the municipality's regimes declares with ``validity.age_limit`` (an age window whose
    reach after acceptance is an interpretation the municipality may change), as that regime declares them."""
    kinds: dict[str, DocumentKind] = {}
    for regime_id in municipality.regimes or ():
        for key, kind in regime_kinds(regime_id).items():
            if kind.validity.age_limit is not None:
                kinds.setdefault(key, kind)
    return kinds


@functools.lru_cache(maxsize=64)
def kind_labels(regime_ids: tuple[str, ...]) -> dict[str, str]:
    """Kind → label over the given regimes (regime declarations are code: they never change while running)."""
    labels: dict[str, str] = {}
    for regime_id in regime_ids:
        for key, kind in regime_kinds(regime_id).items():
            labels.setdefault(key, kind.label)
    return labels


def document_kind_label(kind: str) -> str | None:
    """A document kind as some regime names it, None for a value that is no document kind (audit labels)."""
    return kind_labels(tuple(lawcode.regime_ids())).get(kind)


def kind_label(municipality: Municipality, kind: str) -> str:
    """How people read a stored kind; one no regime of the municipality declares any more says so."""
    label = kind_labels(tuple(municipality.regimes or ())).get(kind)
    return label if label is not None else f"{kind} (tipo não previsto pela lei do município)"


def document_catalog(regime_id: str) -> tuple[CatalogEntry, ...]:
    """The kinds regime ``regime_id`` declares, each with the article asking for it and its validity rule."""
    return tuple(_entry(kind) for kind in regime_kinds(regime_id).values())


def _entry(kind: DocumentKind) -> CatalogEntry:
    presenters = ", ".join(PRESENTER_LABELS[p] for p in kind.presented_by)
    validity = VALIDITY_TEXT[kind.validity.rule]
    if kind.validity.cite_text != kind.cite_text:
        validity += f" ({kind.validity.cite_text})"
    return CatalogEntry(kind.key, kind.label, (kind.cite_text,), presenters, validity)


def kind_choices(kinds: dict[str, DocumentKind]) -> list[tuple[str, str]]:
    return [(key, kind.label) for key, kind in kinds.items()]
