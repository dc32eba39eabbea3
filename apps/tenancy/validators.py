from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError

from apps.tenancy.regimes import known_regime_ids

_IBGE = re.compile(r"^\d{7}$")


def validate_ibge_code(value: str) -> None:
    if not _IBGE.match(value):
        raise ValidationError("Código IBGE inválido: informe os 7 dígitos do município.", code="invalid_ibge")


def validate_regime_ids(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValidationError("Informe a lista de regimes como identificadores de texto.", code="invalid")
    unknown = sorted(set(value) - set(known_regime_ids()))
    if unknown:
        raise ValidationError(
            "Regime(s) desconhecido(s): %(unknown)s.",
            code="unknown_regime",
            params={"unknown": ", ".join(unknown)},
        )
