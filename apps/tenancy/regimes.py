"""Which lawcode regimes exist, for validating Municipality.regimes."""

from __future__ import annotations

from lawcode.registry import regime_ids


def known_regime_ids() -> tuple[str, ...]:
    """Every regime folder lawcode knows, without loading (and validating) the regimes themselves.

    Loading is lawcode's job and its own tests'; a municipality only needs the id to exist.
    """
    return tuple(regime_ids())
