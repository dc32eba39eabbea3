"""Who a notification goes to: the holder (autorizatário) or one of its people, and their e-mail on record;
and the article a stored engine decision cites (never a text of our own)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apps.notifications.services import Message, Outgoing
from apps.registry.models import Operator, Person


def holder_email(operator: Operator) -> str:
    holder = operator.person if operator.person_id else operator.company
    return holder.email if holder is not None else ""


def to_holder(operator: Operator, message: Message) -> Outgoing:
    return Outgoing(operator.municipality_id, operator.pk, None, holder_email(operator), message)


def to_person(operator: Operator, person: Person, message: Message) -> Outgoing:
    """To a driver or attendant of the operator; the holder is the person itself when it holds the operator."""
    if operator.person_id == person.pk:
        return to_holder(operator, message)
    return Outgoing(operator.municipality_id, operator.pk, person.pk, person.email, message)


def cited(*decisions: Mapping[str, Any]) -> str:
    """The articles the engine cited in stored decisions (``Decision.to_dict()``: its own citations and its
    findings'), each once, in order."""
    texts: list[str] = []
    for decision in decisions:
        findings = decision.get("findings", [])
        citations = [*decision.get("citations", []), *(c for f in findings for c in f.get("citations", []))]
        for citation in citations:
            text = citation.get("text", "")
            if text and text not in texts:
                texts.append(text)
    return "; ".join(texts)
