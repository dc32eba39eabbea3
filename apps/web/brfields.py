"""Form fields for numbers as people type them in Brazil — one parser per kind of value.

"1.152,60", "R$ 1.152,60", "1152,6" and "1152.60" are all R$ 1.152,60; "5,56" and "1.234,5678" are numbers with a
decimal comma. Django's localized DecimalField refuses the thousands dot ("1.152,60"), the very format the
screens print. Documents, CEP and plates are the registry's (apps/registry/fields.py).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from lawcode.fields import parse_decimal_pt

_THOUSANDS_ONLY = re.compile(r"\d{1,3}(\.\d{3})+")


def parse_number(text: str) -> Decimal:
    """A number with a decimal comma ("5,56", "1.234,56") or point ("5.56"). ValueError if it is not one."""
    return parse_decimal_pt(text)


def parse_money(text: str) -> Decimal:
    """Reais as typed: "R$ 1.152,60", "1.152,60", "1152,6", "1152.60", "1.152" (a thousands dot). ValueError."""
    cleaned = text.strip().removeprefix("R$").replace("\u00a0", "").replace(" ", "")
    if "," not in cleaned and _THOUSANDS_ONLY.fullmatch(cleaned):
        cleaned = cleaned.replace(".", "")
    return parse_decimal_pt(cleaned)


class NumberField(forms.CharField):
    """A number as Brazilians write it, at most ``places`` decimals."""

    example = "5,56"

    def __init__(self, *args: Any, places: int = 4, min_value: Decimal | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(*args, **kwargs)
        self.places, self.min_value = places, min_value

    def parse(self, text: str) -> Decimal:
        return parse_number(text)

    def clean(self, value: Any) -> Decimal | None:
        text = super().clean(value)
        if text in (None, ""):
            return None
        try:
            number = self.parse(str(text))
        except ValueError:
            raise ValidationError(
                f"{self.label}: informe um número, com vírgula para decimais (ex.: {self.example})."
            ) from None
        exponent = number.as_tuple().exponent
        if isinstance(exponent, int) and -exponent > self.places:
            raise ValidationError(f"{self.label}: use no máximo {self.places} casas decimais.")
        if self.min_value is not None and number < self.min_value:
            raise ValidationError(f"{self.label}: não pode ser menor que {self.min_value}.")
        return number


class MoneyField(NumberField):
    """Reais with centavos: "1.152,60" (as the guides print it), "R$ 1.152,60", "1152,60"."""

    example = "1.152,60"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("places", 2)
        kwargs.setdefault("min_value", Decimal(0))
        super().__init__(*args, **kwargs)

    def parse(self, text: str) -> Decimal:
        return parse_money(text)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Decimal):
            return f"{value:,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
        return value
