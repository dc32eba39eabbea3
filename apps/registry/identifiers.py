"""Brazilian identifiers: normalize for storage, format for display, validate with Portuguese messages.

Check digits come from validate-docbr (CPF, CNPJ numeric and alphanumeric from July 2026, RENAVAM); plates and
the CNH warning are ours (docs/domain/facts.md §3). validate_* return the normalized value or raise Django's
ValidationError whose message names the field, so forms and services show it as is.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from validate_docbr import CNH, CNPJ, CPF, RENAVAM

_CPF = CPF()
_CNPJ = CNPJ()
_RENAVAM = RENAVAM()
_CNH = CNH()

_SEPARATORS = re.compile(r"[\s.\-/]")
_CNPJ_SHAPE = re.compile(r"^[0-9A-Z]{12}[0-9]{2}$")
_OLD_PLATE = re.compile(r"^[A-Z]{3}[0-9]{4}$")
_MERCOSUL_PLATE = re.compile(r"^[A-Z]{3}[0-9][A-Z][0-9]{2}$")
# CONTRAN Res. 780/2019: the plate's second digit becomes a letter, 0→A … 9→J.
_DIGIT_TO_LETTER = "ABCDEFGHIJ"


def normalize_cpf(value: str) -> str:
    return re.sub(r"\D", "", value or "")


def format_cpf(value: str) -> str:
    digits = normalize_cpf(value)
    if len(digits) != 11:
        return value
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def mask_cpf(value: str) -> str:
    """The masked form public documents use (***.982.247-**): enough to tell people apart, not to identify."""
    digits = normalize_cpf(value)
    return f"***.{digits[3:6]}.{digits[6:9]}-**" if len(digits) == 11 else "***"


def validate_cpf(value: str) -> str:
    digits = normalize_cpf(value)
    if len(digits) != 11:
        raise ValidationError("CPF: informe os 11 dígitos.", code="cpf_length")
    if not _CPF.validate(digits):
        raise ValidationError(
            "CPF: número inválido (dígitos verificadores não conferem).", code="cpf_invalid"
        )
    return digits


def normalize_cnpj(value: str) -> str:
    """Upper case without punctuation: alphanumeric CNPJs (IN RFB 2.229/2024) keep their letters."""
    return _SEPARATORS.sub("", value or "").upper()


def format_cnpj(value: str) -> str:
    raw = normalize_cnpj(value)
    if len(raw) != 14:
        return value
    return f"{raw[:2]}.{raw[2:5]}.{raw[5:8]}/{raw[8:12]}-{raw[12:]}"


def validate_cnpj(value: str) -> str:
    raw = normalize_cnpj(value)
    if not _CNPJ_SHAPE.match(raw):
        raise ValidationError(
            "CNPJ: informe 14 caracteres — 12 letras ou números e 2 dígitos verificadores numéricos.",
            code="cnpj_shape",
        )
    if not _CNPJ.validate(raw):
        raise ValidationError(
            "CNPJ: número inválido (dígitos verificadores não conferem).", code="cnpj_invalid"
        )
    return raw


def normalize_plate(value: str) -> str:
    return _SEPARATORS.sub("", value or "").upper()


def plate_format(value: str) -> str | None:
    """'old' (LLLNNNN), 'mercosul' (LLLNLNN) or None when the plate has neither shape."""
    plate = normalize_plate(value)
    if _OLD_PLATE.match(plate):
        return "old"
    if _MERCOSUL_PLATE.match(plate):
        return "mercosul"
    return None


def validate_plate(value: str) -> str:
    plate = normalize_plate(value)
    if plate_format(plate) is None:
        raise ValidationError(
            "Placa: use o formato antigo (ABC1234) ou o Mercosul (ABC1D23).", code="plate_invalid"
        )
    return plate


def to_mercosul(value: str) -> str:
    """The Mercosul form of a plate (an old plate converted; a Mercosul plate unchanged)."""
    plate = validate_plate(value)
    if plate_format(plate) == "mercosul":
        return plate
    return plate[:4] + _DIGIT_TO_LETTER[int(plate[4])] + plate[5:]


def plate_final_digit(value: str) -> int:
    """The last character, a digit in both formats (DETRAN and municipal inspection calendars use it)."""
    return int(validate_plate(value)[-1])


def format_plate(value: str) -> str:
    plate = normalize_plate(value)
    return f"{plate[:3]}-{plate[3:]}" if plate_format(plate) == "old" else plate


def validate_renavam(value: str) -> str:
    digits = re.sub(r"\D", "", value or "")
    if not digits or len(digits) > 11 or len(digits) != len((value or "").strip()):
        raise ValidationError("RENAVAM: informe até 11 dígitos, só números.", code="renavam_shape")
    padded = digits.zfill(11)
    if not _RENAVAM.validate(padded):
        raise ValidationError(
            "RENAVAM: número inválido (dígito verificador não confere).", code="renavam_invalid"
        )
    return padded


def cnh_number_warning(value: str) -> str | None:
    """A soft warning only: the CNH check-digit algorithm is not officially published (facts.md §3.1)."""
    digits = re.sub(r"\D", "", value or "")
    if len(digits) != 11:
        return "Número da CNH: esperados 11 dígitos; confira no documento."
    if not _CNH.validate(digits):
        return "Número da CNH: os dígitos verificadores não conferem no cálculo usual; confira no documento."
    return None
