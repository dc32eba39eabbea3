"""Money and document display in Brazilian Portuguese (R$ 1.234,56; 0,25 UFM; 123.456.789-09)."""

from __future__ import annotations

from decimal import Decimal

from apps.registry.identifiers import format_cnpj, format_cpf


def brl(amount: Decimal, places: int = 2) -> str:
    """R$ 1.234,56 (Brazilian separators)."""
    text = f"{amount:,.{places}f}".replace(",", "_").replace(".", ",").replace("_", ".")
    return f"R$ {text}"


def brl_unit_value(value: Decimal) -> str:
    """A fiscal unit value keeps the precision its decree gives (R$ 4,3587), at least centavos (R$ 5,45)."""
    exponent = value.normalize().as_tuple().exponent
    places = max(2, -exponent) if isinstance(exponent, int) else 2
    return brl(value, places)


def decimal_pt(value: Decimal) -> str:
    """0.2500 → 0,25; 12.0000 → 12."""
    text = format(value.normalize(), "f")
    return text.replace(".", ",")


def payer_document_display(document: str) -> str:
    return format_cpf(document) if len(document) == 11 else format_cnpj(document)
