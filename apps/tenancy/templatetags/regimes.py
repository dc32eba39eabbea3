"""{{ regime_id|regime_name }}: people read the regime's name, never the internal id.

{{ subject|instrument:"plural" }}: the act the law issues, as the law of ``subject`` names it (a permit or case
by its regime, a municipality by its regimes; generic when none). Parts: name (default), plural, short,
short_plural, lookup, article ("o"/"a"). Loaded in every template (settings TEMPLATES builtins).
"""

from __future__ import annotations

from django import template

from apps.tenancy.regimes import instrument_of_object, regime_summary

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
