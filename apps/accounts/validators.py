from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from validate_docbr import CPF

_PHONE = re.compile(r"^\d{10,11}$")


def validate_cpf(value: str) -> None:
    """CPF stored as 11 digits, check digits verified."""
    if not (value.isdigit() and len(value) == 11 and CPF().validate(value)):
        raise ValidationError("CPF inválido: informe os 11 dígitos de um CPF válido.", code="invalid_cpf")


def validate_phone(value: str) -> None:
    """Brazilian phone as DDD + number, digits only (10 or 11 digits)."""
    if not _PHONE.match(value):
        raise ValidationError("Telefone inválido: informe DDD e número, só dígitos.", code="invalid_phone")
