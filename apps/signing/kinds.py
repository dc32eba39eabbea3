"""The kinds of act that leave Outorga as a PDF, each registered by the module that draws it.

A producer calls ``document_kind(slug, label)`` at import; the municipality's signing screen lists what is
registered, and apps.signing.services.document_issue refuses a kind nobody registered (a typo is loud).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DocumentKind:
    slug: str
    label: str


_KINDS: dict[str, DocumentKind] = {}


def document_kind(slug: str, label: str) -> DocumentKind:
    kind = DocumentKind(slug, label)
    existing = _KINDS.setdefault(slug, kind)
    if existing != kind:
        raise ValueError(f"document kind {slug!r} registered twice with different labels")
    return kind


def registered_kinds() -> list[DocumentKind]:
    return sorted(_KINDS.values(), key=lambda kind: kind.label)


def kind_label(slug: str) -> str:
    found = _KINDS.get(slug)
    return found.label if found else "Documento"


def known(slug: str) -> bool:
    return slug in _KINDS
