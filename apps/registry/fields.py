"""Form fields for the registry's identifiers as people type them: masks and separators accepted, the digits
(or the plate's letters and digits) handed to the services, which check them (apps/registry/identifiers.py)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

_SEPARATORS = re.compile(r"[\s./\-]")


def parse_digits(text: str) -> str:
    """ "529.982.247-25", "12210-000", "11.222.333/0001-81" → their digits; ValueError if anything else is left."""
    digits = _SEPARATORS.sub("", text or "")
    if digits and not digits.isdigit():
        raise ValueError(text)
    return digits


class DigitsField(forms.CharField):
    """Digits behind a mask; ``sizes`` are the lengths the value may have (11 for a CPF, 8 for a CEP…)."""

    def __init__(self, *args: Any, sizes: tuple[int, ...], example: str, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", max(sizes) + 8)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "numeric"}))
        super().__init__(*args, **kwargs)
        self.sizes, self.example = sizes, example

    def clean(self, value: Any) -> str:
        text = super().clean(value)
        sizes = " ou ".join(str(size) for size in self.sizes)
        refusal = ValidationError(f"{self.label}: informe os {sizes} dígitos, ex.: {self.example}.")
        try:
            digits = parse_digits(str(text or ""))
        except ValueError:
            raise refusal from None
        if digits and len(digits) not in self.sizes:
            raise refusal
        return digits


def cep_field(**kwargs: Any) -> DigitsField:
    return DigitsField(sizes=(8,), example="15400-000", **{"label": "CEP", **kwargs})
