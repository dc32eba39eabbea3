"""What the law says about registry rows, asked through apps.lawconfig.engine: document validity and bans."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from apps.lawconfig.engine import RegimeChoiceError, evaluate, regime_for
from apps.registry.choices import DocumentStatus
from apps.registry.errors import refuse
from apps.registry.lawfacts import document_fact, operator_facts
from apps.registry.models import Document, Operator
from lawcode.calendar import format_date_pt
from lawcode.errors import InvalidFactError, LawcodeError, MissingFactError, QuestionNotApplicableError


@dataclass(frozen=True)
class Validity:
    valid_until: dt.date | None
    status: str
    stored: dict[str, Any]
    """The Decision's to_dict(), or {"not_governed": …} when the regime sets no rule for this kind."""


def document_regime(document: Document, regime_id: str | None = None) -> str:
    """The regime judging a document: the given one, its operator's, or the municipality's only regime."""
    if regime_id is None and document.operator is not None:
        regime_id = document.operator.regime_id
    try:
        return regime_for(document.municipality, regime_id)
    except RegimeChoiceError as exc:
        raise refuse("regime_id", f"Regime: {exc.message_pt}") from None


def document_validity(document: Document, *, as_of: dt.date, regime_id: str | None = None) -> Validity:
    """The engine's document_validity; a kind the law does not govern keeps its printed validity."""
    chosen = document_regime(document, regime_id)
    try:
        decision = evaluate(
            municipality=document.municipality,
            question="document_validity",
            facts=document_fact(document),
            as_of=as_of,
            regime_id=chosen,
        )
    except MissingFactError as exc:
        field = _form_field(exc.field_path)
        raise refuse(
            field, f"{FIELD_LABELS[field]}: a lei exige esta informação para este documento."
        ) from None
    except InvalidFactError as exc:
        if exc.field_path.split(".")[-1] != "kind":
            raise refuse(_form_field(exc.field_path), exc.message_pt) from None
        return _not_governed(document, exc, as_of)
    valid_until = decision.result.get("valid_until")
    granted = decision.outcome == "granted"
    status = DocumentStatus.VALID if granted else DocumentStatus.NOT_ACCEPTED
    return Validity(valid_until, status, decision.to_dict())


def _not_governed(document: Document, exc: LawcodeError, as_of: dt.date) -> Validity:
    expired = document.expiry_date is not None and document.expiry_date < as_of
    status = DocumentStatus.EXPIRED if expired else DocumentStatus.VALID
    note = (
        f"A lei do regime não fixa validade para este documento; vale a validade impressa. ({exc.message_pt})"
    )
    return Validity(document.expiry_date, status, {"not_governed": note})


FIELD_LABELS = {
    "court": "Órgão emissor da certidão (Justiça Federal ou Estadual)",
    "third_party_bodily_coverage": "Cobertura de danos corporais a terceiros",
    "issue_date": "Data de emissão", "expiry_date": "Validade impressa", "kind": "Tipo de documento",
}  # fmt: skip


def _form_field(field_path: str) -> str:
    """lawcode's dotted path (document.details.court) → the upload form's field (court)."""
    last = field_path.split(".")[-1]
    return last if last in FIELD_LABELS else "kind"


def ban_refusal(operator: Operator, *, as_of: dt.date) -> str | None:
    """A Portuguese refusal citing the article and the ban's end date, or None when not banned.

    Regimes that do not answer ban_status (the law sets no ban) never refuse.
    """
    try:
        decision = evaluate(
            municipality=operator.municipality,
            question="ban_status",
            facts=operator_facts(operator, as_of=as_of),
            as_of=as_of,
            regime_id=operator.regime_id,
        )
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
