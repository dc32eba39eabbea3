"""What the law says about registry rows, asked through the registry's lawbridge: document validity and bans."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import lawcode
from apps.lawconfig.config import RegimeChoiceError, regime_for
from apps.registry.catalog import OWNER_PRESENTERS
from apps.registry.choices import DocumentStatus
from apps.registry.lawbridge import ban_status_decision, document_validity_decision
from apps.registry.models import Document, Operator
from apps.tenancy.models import Municipality
from apps.web.refusals import refuse
from lawcode.calendar import format_date_pt
from lawcode.documents import PRESENTER_LABELS, DocumentKind
from lawcode.errors import InvalidFactError, LawcodeError, MissingFactError, QuestionNotApplicableError
from lawcode.fields import FieldSpec
from lawcode.jsonsafe import json_safe


@dataclass(frozen=True)
class Validity:
    valid_until: dt.date | None
    status: str
    stored: dict[str, Any]
    """The Decision's to_dict(), or {"declared_validity": …} when the regime's declaration says the printed
    expiry governs (documents.yaml ``validity: {rule: printed_expiry}``)."""


def document_regime(document: Document, regime_id: str | None = None) -> str:
    """The regime judging a document: the given one, its operator's, or the municipality's only regime."""
    if regime_id is None and document.operator is not None:
        regime_id = document.operator.regime_id
    try:
        return regime_for(document.municipality, regime_id)
    except RegimeChoiceError as exc:
        raise refuse("regime_id", f"Regime: {exc.message_pt}") from None


def declared_kind(document: Document, regime_id: str) -> DocumentKind:
    """The kind as the judging regime declares it; refuses a kind the regime does not declare or an owner who
    does not present it (e.g. a vehicle's CRLV attached to a company that is not an operator)."""
    regime = lawcode.get_regime(regime_id)
    kind = regime.vocabulary.documents.kinds.get(document.kind)
    if kind is None:
        declared = "; ".join(k.label for k in regime.vocabulary.documents.kinds.values()) or "nenhum"
        raise refuse(
            "kind",
            f"Tipo de documento: {document.kind!r} não é previsto pela {regime.main_act.cite_as} "
            f"(documentos previstos: {declared}).",
        )
    owner = owner_field(document)
    if not OWNER_PRESENTERS[owner] & set(kind.presented_by):
        who = ", ".join(PRESENTER_LABELS[p] for p in kind.presented_by)
        raise refuse("owner", f"Documento de: {kind.label} é apresentado por {who} ({kind.cite_text}).")
    return kind


def owner_field(document: Document) -> str:
    for name in ("person", "company", "vehicle", "operator"):
        if getattr(document, f"{name}_id") is not None:
            return name
    raise refuse("owner", "Documento de: informe a quem pertence o documento.")


def typed_details(kind: DocumentKind, details: dict[str, Any]) -> dict[str, Any]:
    """The details typed by the kind's declared fields (the clerk's reading ``valid`` kept as it is); an
    undeclared or badly typed detail is refused on its form field, in Portuguese, naming the article."""
    reading = {key: value for key, value in details.items() if key == "valid"}
    out: dict[str, Any] = {}
    for key, value in details.items():
        if key == "valid":
            continue
        spec = kind.details.get(key)
        if spec is None:
            raise refuse(detail_field(key), f"{kind.label}: a informação '{key}' não é prevista pela lei.")
        try:
            typed = spec.coerce(value, f"document.details.{key}")
        except InvalidFactError as exc:
            raise refuse(detail_field(key), exc.message_pt) from None
        if typed is not None:
            out[key] = typed
    return {**json_safe(out), **reading}


def detail_field(key: str) -> str:
    """The upload form's field for a declared detail."""
    return f"detail_{key}"


def extra_field(key: str) -> str:
    """The form field for one of the regime's extra questions (facts.yaml)."""
    return f"extra_{key}"


def extra_schema(municipality: Municipality, regime_id: str | None, entity: str) -> dict[str, FieldSpec]:
    """The extra questions about ``entity`` of the regime (or, with none given, of every regime the
    municipality runs: a company or a vehicle without an operator may serve any of them)."""
    regime_ids = [regime_id] if regime_id else list(municipality.regimes or [])
    schema: dict[str, FieldSpec] = {}
    for chosen in regime_ids:
        for key, spec in lawcode.get_regime(chosen).vocabulary.facts.for_entity(entity).items():
            schema.setdefault(key, spec)
    return schema


def typed_extra(schema: Mapping[str, FieldSpec], values: Mapping[str, Any], what: str) -> dict[str, Any]:
    """``values`` typed by ``schema``, JSON-safe for the ``extra`` column; an undeclared question or a bad
    answer is refused on its form field, naming the label and the article."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        spec = schema.get(key)
        if spec is None:
            raise refuse(extra_field(key), f"{what}: a informação '{key}' não é prevista pela lei do regime.")
        try:
            typed = spec.coerce(value, f"extra.{key}")
        except InvalidFactError as exc:
            raise refuse(extra_field(key), exc.message_pt) from None
        if typed is not None:
            out[key] = typed
    return dict(json_safe(out))


def document_validity(document: Document, *, as_of: dt.date, regime_id: str | None = None) -> Validity:
    """Validity as the judging regime declares it: its document_validity rule, or the printed expiry."""
    chosen = document_regime(document, regime_id)
    kind = declared_kind(document, chosen)
    document.details = typed_details(kind, dict(document.details or {}))
    if kind.validity.rule == "printed_expiry":
        return _printed_expiry(document, kind, as_of, chosen)
    try:
        decision = document_validity_decision(document, as_of=as_of, regime_id=chosen)
    except MissingFactError as exc:
        field, label = _form_field(kind, exc.field_path)
        raise refuse(
            field, f"{label}: a lei exige esta informação para este documento ({kind.cite_text})."
        ) from None
    except InvalidFactError as exc:
        # The Portuguese problem alone: the engine's field path ('kind') means nothing to the clerk.
        message = f"{kind.label}: {exc.problem_pt}." if exc.problem_pt else exc.message_pt
        raise refuse(_form_field(kind, exc.field_path)[0], message) from None
    valid_until = decision.result.get("valid_until")
    granted = decision.outcome == "granted"
    status = DocumentStatus.VALID if granted else DocumentStatus.NOT_ACCEPTED
    return Validity(valid_until, status, decision.to_dict())


def _printed_expiry(document: Document, kind: DocumentKind, as_of: dt.date, regime_id: str) -> Validity:
    """The regime declares that the printed expiry governs (none printed: no expiry); the clerk's reading that
    the content does not meet the law still refuses it."""
    expired = document.expiry_date is not None and document.expiry_date < as_of
    rejected = (document.details or {}).get("valid") is False
    status = (
        DocumentStatus.NOT_ACCEPTED
        if rejected
        else DocumentStatus.EXPIRED
        if expired
        else DocumentStatus.VALID
    )
    note = f"{kind.label}: vale a validade impressa ({kind.validity.cite_text})."
    if kind.validity.note:
        note += f" {kind.validity.note}"
    stored = {
        "declared_validity": {
            "regime": regime_id,
            "rule": "printed_expiry",
            "cite": kind.validity.cite,
            "text": note,
        }
    }
    return Validity(document.expiry_date, status, stored)


_DOCUMENT_FIELDS = {
    "issue_date": "Data de emissão",
    "expiry_date": "Validade impressa",
    "kind": "Tipo de documento",
    "valid": "O conteúdo atende ao exigido",
}


def _form_field(kind: DocumentKind, field_path: str) -> tuple[str, str]:
    """lawcode's dotted path (document.details.court) → the upload form's field and its label."""
    parts = field_path.split(".")
    if "details" in parts[:-1] and parts[-1] in kind.details:
        return detail_field(parts[-1]), kind.details[parts[-1]].label
    if parts[-1] in _DOCUMENT_FIELDS:
        return parts[-1], _DOCUMENT_FIELDS[parts[-1]]
    return "kind", _DOCUMENT_FIELDS["kind"]


def ban_refusal(operator: Operator, *, as_of: dt.date) -> str | None:
    """A Portuguese refusal citing the article and the ban's end date, or None when not banned.

    Regimes that do not answer ban_status (the law sets no ban) never refuse.
    """
    try:
        decision = ban_status_decision(operator, as_of=as_of)
    except QuestionNotApplicableError:
        return None
    except LawcodeError as exc:
        # The law cannot judge the registration (not in force on that day, a fact it needs is missing):
        # refuse with the engine's own words rather than register blindly.
        return f"Não foi possível verificar impedimentos: {exc.message_pt}"
    if decision.outcome != "banned":
        return None
    until = decision.result.get("until")
    articles = "; ".join(str(c) for c in decision.citations) or "lei municipal"
    shown = format_date_pt(until) if isinstance(until, dt.date) else "data indeterminada"
    return f"Impedido de atuar até {shown} ({articles})."
