"""{{ regime_id|regime_name }}: people read the regime's name, never the internal id.

{{ subject|instrument:"plural" }}: the act the law issues, as the law of ``subject`` names it (a permit or case
by its regime, a municipality by its regimes; generic when none). Parts: name (default), plural, short,
short_plural, lookup, article ("o"/"a"). Loaded in every template (settings TEMPLATES builtins).
"""

from __future__ import annotations

from typing import Any

from django import template

from apps.tenancy.regimes import instrument_of_object, labels_of, regime_summary

register = template.Library()

PARTS = ("name", "plural", "short", "short_plural", "lookup", "article")


@register.filter
def regime_name(regime_id: str) -> str:
    return regime_summary(regime_id)[0]


@register.filter
def instrument(subject: object, part: str = "name") -> str:
    if part not in PARTS:
        raise template.TemplateSyntaxError(f"instrument: unknown part {part!r}; one of {', '.join(PARTS)}")
    return str(getattr(instrument_of_object(subject), part))


@register.filter
def application_kind(application: Any) -> str:
    """{{ application|application_kind }}: the kind as the application's regime's law names it (labels.yaml)."""
    declared = labels_of(application.regime_id).application_kinds.get(application.kind)
    return declared.label if declared is not None else str(application.get_kind_display())


@register.filter
def deadline_label(subject: Any, question: str) -> str:
    """{{ case|deadline_label:"notice_limit" }}: the deadline as the subject's regime's law words it."""
    return labels_of(subject.regime_id).deadline_label(question)
