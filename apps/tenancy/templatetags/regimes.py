"""{{ regime_id|regime_name }}: people read the regime's name, never the internal id."""

from __future__ import annotations

from django import template

from apps.tenancy.regimes import regime_summary

register = template.Library()


@register.filter
def regime_name(regime_id: str) -> str:
    return regime_summary(regime_id)[0]
