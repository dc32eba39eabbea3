from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from validate_docbr import CPF
from zxcvbn import zxcvbn

_PHONE = re.compile(r"^\d{10,11}$")


def validate_cpf(value: str) -> None:
    """CPF stored as 11 digits, check digits verified."""
    if not (value.isdigit() and len(value) == 11 and CPF().validate(value)):
        raise ValidationError("CPF inválido: informe os 11 dígitos de um CPF válido.", code="invalid_cpf")


def validate_phone(value: str) -> None:
    """Brazilian phone as DDD + number, digits only (10 or 11 digits)."""
    if not _PHONE.match(value):
        raise ValidationError("Telefone inválido: informe DDD e número, só dígitos.", code="invalid_phone")


COMMON_BR = Path(__file__).resolve().parent / "data" / "senhas-comuns-br.txt"
WEAK_PASSWORD = "Senha fácil de adivinhar"
# zxcvbn's warnings (English), said in Portuguese. One not listed gets the general advice.
_WARNINGS = {
    "Repeats": "repete caracteres ou trechos (como “aaa” ou “abcabc”)",
    "Sequences": "segue uma sequência (como “abc” ou “6543”)",
    "keyboard": "segue as teclas do teclado (como “qwerty” ou “asdf”)",
    "Straight rows": "segue as teclas do teclado (como “qwerty” ou “asdf”)",
    "Short keyboard": "segue as teclas do teclado (como “qwerty” ou “asdf”)",
    "common": "é uma senha muito usada (ou parecida com uma)",
    "top-10": "é uma senha muito usada",
    "top-100": "é uma senha muito usada",
    "Names and surnames": "é feita de nomes ou sobrenomes",
    "Common names": "é feita de nomes ou sobrenomes",
    "A word by itself": "é uma palavra só",
    "Dates": "contém uma data",
    "Recent years": "contém um ano",
}


@cache
def common_brazilian_words() -> tuple[str, ...]:
    lines = COMMON_BR.read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def _personal_words(user: Any) -> list[str]:
    """What the user's own data offers a guesser: user name, name, e-mail, CPF, phone."""
    if user is None:
        return []
    words: list[str] = []
    for field in ("username", "full_name", "first_name", "last_name", "email", "cpf", "phone"):
        value = str(getattr(user, field, "") or "")
        if value:
            words.append(value)
            words.extend(part for part in re.split(r"[\s@._-]+", value) if len(part) >= 3)
    return words


class PasswordStrengthValidator:
    """Refuse a password an attacker would guess soon (zxcvbn's estimate below `min_score`, of 0 to 4):
    repeated characters, sequences, keyboard walks, dictionary words and leaked passwords, dates, the user's
    own data and the common Brazilian words of data/senhas-comuns-br.txt, also with digits or l33t added
    (ASVS 6.2.4 and 6.2.11). The message says what makes it weak, in Portuguese."""

    def __init__(self, min_score: int = 3) -> None:
        self.min_score = min_score

    def validate(self, password: str, user: Any = None) -> None:
        inputs = [*_personal_words(user), *common_brazilian_words()]
        result = zxcvbn(
            password[:128], user_inputs=inputs
        )  # zxcvbn is quadratic: a long one is strong anyway
        if result["score"] >= self.min_score:
            return
        raise ValidationError(
            _message(str(result["feedback"].get("warning") or "")), code="password_too_weak"
        )

    def get_help_text(self) -> str:
        return "Evite repetições, sequências, teclas vizinhas, palavras comuns e seus próprios dados."


def _message(warning: str) -> str:
    reason = next((text for key, text in _WARNINGS.items() if key in warning), "")
    if reason:
        return f"{WEAK_PASSWORD}: {reason}. Use uma frase com palavras que não combinem entre si."
    return f"{WEAK_PASSWORD}. Use uma frase com palavras que não combinem entre si."
