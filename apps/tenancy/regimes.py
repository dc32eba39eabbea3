"""Which lawcode regimes exist, for validating Municipality.regimes."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings

_REGIMES_DIR = Path(settings.BASE_DIR) / "lawcode" / "regimes"


@lru_cache(maxsize=1)
def known_regime_ids() -> tuple[str, ...]:
    """Ids from lawcode's registry; its folder layout is the contract when the package is not importable.

    lawcode/docs/lawcode/design.md: one folder per regime under lawcode/regimes/, named by the regime id.
    """
    try:
        from lawcode import all_regimes  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return _regime_ids_from_folders()
    return tuple(sorted(str(regime.id) for regime in all_regimes()))


def _regime_ids_from_folders() -> tuple[str, ...]:
    return tuple(
        sorted(p.name for p in _REGIMES_DIR.iterdir() if p.is_dir() and (p / "law.txt").exists())
    )
