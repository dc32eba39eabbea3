from __future__ import annotations

from decimal import Decimal
from typing import Any

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


@register.filter
def fine_text(sanction: Any) -> str:
    """A sanction's fine as people read it, in its regime's unit: "R$ 286,00" or "15 UFESP" (never "BRL")."""
    from django.core.exceptions import ValidationError

    from apps.finance.valuation import quantity_text

    if sanction.fine_quantity is None:
        return "—"
    try:
        return quantity_text(sanction.case.regime_id, sanction.fine_quantity, sanction.fine_unit)
    except ValidationError:  # a unit the regime no longer declares: show what was decided, and say so
        return f"{formatting.decimal_pt(sanction.fine_quantity)} {sanction.fine_unit} (unidade não prevista pela lei)"


@register.filter
def valuation_unit(valuation: Any) -> str:
    """The unit value a fine's valuation used, as people read it: "UFESP de R$ 38,42" (a re-indexed amount:
    "fator de atualização 1,1234")."""
    from django.core.exceptions import ValidationError

    from apps.finance.valuation import declared_unit

    try:
        unit = declared_unit(valuation.regime_id, valuation.unit)
    except ValidationError:
        unit = None
    if unit is not None and unit.valued_by == "index":
        return f"fator de atualização {formatting.decimal_pt(valuation.unit_value)}"
    label = unit.label if unit is not None else valuation.unit
    return f"{label} de {formatting.brl_unit_value(valuation.unit_value)}"


@register.filter
def waiting_quantity(row: Any) -> str:
    """A waiting guide's quantity in its regime's unit ("15 UFESP")."""
    from django.core.exceptions import ValidationError

    from apps.finance.valuation import quantity_text

    try:
        return quantity_text(row.regime_id, row.quantity, row.unit)
    except ValidationError:
        return f"{formatting.decimal_pt(row.quantity)} {row.unit}"
