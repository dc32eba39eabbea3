"""The optional application answers each regime's law asks, per kind (``application_fields`` in the regime's
facts.yaml, lawcode/appfields.py): what the application forms show and what application_create accepts."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

import lawcode
from apps.licensing.choices import ApplicationKind
from lawcode.appfields import APPLICATION_FIELDS, ApplicationField

LABELS: dict[str, str] = {
    "enrolled_students": "Alunos matriculados",
    "carries_children_under_4_or_pcd": "Transporta crianças menores de 4 anos ou pessoas com deficiência?",
    "platform_notified_on": "Comunicação da plataforma em",
    "extensions": "Prorrogações pedidas",
    "requested_until": "Prazo pedido até",
}
"""How each optional answer is labelled on every screen (the forms' fields carry the same names)."""

# A value the forms send when the field is left alone: it is not an answer.
_UNANSWERED: dict[str, Any] = {"extensions": 0}


def asked(regime_id: str, kind: str) -> tuple[ApplicationField, ...]:
    """The optional answers the regime's law asks for an application of ``kind``, each with its article."""
    return lawcode.get_regime(regime_id).vocabulary.facts.application_fields.for_kind(kind)


def refusal(regime_id: str, kind: str, answers: dict[str, Any]) -> ValidationError | None:
    """The refusal of an answer to a question the regime's law does not ask for this kind (the field named, in
    Portuguese), or None. The forms show it; without JavaScript a field asked for another kind stays visible."""
    wanted = {item.field for item in asked(regime_id, kind)}
    for name in APPLICATION_FIELDS:
        if name in wanted or _unanswered(name, answers.get(name)):
            continue
        return ValidationError(
            {
                name: f"{LABELS[name]}: a lei deste município não pede esta informação para "
                f"«{ApplicationKind(kind).label}»; deixe o campo em branco."
            }
        )
    return None


def only_asked(regime_id: str, kind: str, answers: dict[str, Any]) -> dict[str, Any]:
    """``answers`` with those the regime's law does not ask for this kind blanked: never stored, never given
    to the engine (a seeder or an API caller may send every answer whatever the regime)."""
    wanted = {item.field for item in asked(regime_id, kind)}
    return {name: value if name in wanted else _UNANSWERED.get(name) for name, value in answers.items()}


def _unanswered(name: str, value: Any) -> bool:
    return value is None or value == "" or value == _UNANSWERED.get(name)


def limit_form(form: Any, regime_id: str) -> None:
    """Keep on ``form`` only the optional answers the regime's law asks for some kind; each kept field says
    which kinds ask it and under which article, and carries ``data-kinds`` so static/js/outorga.js shows it
    only for those kinds (without JavaScript every field the regime asks stays visible)."""
    by_kind = lawcode.get_regime(regime_id).vocabulary.facts.application_fields.by_kind
    for name in APPLICATION_FIELDS:
        if name not in form.fields:
            continue
        kinds = [
            kind for kind in ApplicationKind.values if any(i.field == name for i in by_kind.get(kind, ()))
        ]
        if not kinds:
            del form.fields[name]
            continue
        field = form.fields[name]
        field.widget.attrs["data-kinds"] = " ".join(kinds)
        field.help_text = _asked_for(name, kinds, by_kind)


def _asked_for(name: str, kinds: list[str], by_kind: Any) -> str:
    cites = sorted({item.cite_text for kind in kinds for item in by_kind[kind] if item.field == name})
    labels = ", ".join(ApplicationKind(kind).label for kind in kinds)
    return f"Só para: {labels} ({'; '.join(cites)})."
