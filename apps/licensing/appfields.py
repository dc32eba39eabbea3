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


def declared_kinds(regime_id: str) -> dict[str, str]:
    """The application kinds the regime's law has, each by the law's own name (labels.yaml application_kinds)."""
    declared = lawcode.get_regime(regime_id).vocabulary.labels.application_kinds
    return {kind: declared[kind].label for kind in ApplicationKind.values if kind in declared}


def kind_label(regime_id: str, kind: str) -> str:
    """The kind as the regime's law names it; the product's generic name when the law does not have it."""
    return declared_kinds(regime_id).get(kind) or str(ApplicationKind(kind).label)


def kind_choices(regime_id: str, offered: tuple[str, ...] | list[str] | None = None) -> list[tuple[str, str]]:
    """The choices of a form's application kind: only those the regime's law has (of ``offered``)."""
    declared = declared_kinds(regime_id)
    return [(kind, label) for kind, label in declared.items() if offered is None or kind in offered]


def kind_refusal(regime_id: str, kind: str) -> ValidationError | None:
    """A kind the regime's law does not have is refused by name, with the law's kinds listed."""
    if kind in declared_kinds(regime_id):
        return None
    regime = lawcode.get_regime(regime_id)
    return ValidationError(
        {
            "kind": f"Tipo de requerimento: «{ApplicationKind(kind).label}» não existe na lei deste regime "
            f"({regime.main_act.title}); a lei prevê: {', '.join(declared_kinds(regime_id).values())}."
        }
    )


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
                f"«{kind_label(regime_id, kind)}»; deixe o campo em branco."
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
    """Offer on ``form`` only the application kinds the regime's law has (by its names), and keep only the
    optional answers the regime's law asks for some kind; each kept field says which kinds ask it and under which
    article, and carries ``data-kinds`` so static/js/outorga.js shows it only for those kinds (without JavaScript
    every field the regime asks stays visible)."""
    by_kind = lawcode.get_regime(regime_id).vocabulary.facts.application_fields.by_kind
    if "kind" in form.fields:
        offered = [value for value, _ in form.fields["kind"].choices if value]
        form.fields["kind"].choices = kind_choices(regime_id, offered)
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
        field.help_text = _asked_for(regime_id, name, kinds, by_kind)


def _asked_for(regime_id: str, name: str, kinds: list[str], by_kind: Any) -> str:
    cites = sorted({item.cite_text for kind in kinds for item in by_kind[kind] if item.field == name})
    labels = ", ".join(kind_label(regime_id, kind) for kind in kinds)
    return f"Só para: {labels} ({'; '.join(cites)})."
