from __future__ import annotations

from decimal import Decimal

from django import template

from apps.finance import formatting

register = template.Library()


@register.filter
def brl(value: Decimal | None) -> str:
    return "—" if value is None else formatting.brl(value)


@register.filter
def brl_unit(value: Decimal | None) -> str:
    return "—" if value is None else formatting.brl_unit_value(value)


@register.filter
def decimal_pt(value: Decimal | None) -> str:
    return "—" if value is None else formatting.decimal_pt(value)


@register.filter
def payer_document(value: str) -> str:
    return formatting.payer_document_display(value)
