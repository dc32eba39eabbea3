"""Which lawcode regimes exist, for validating Municipality.regimes."""

from __future__ import annotations

import lawcode
from lawcode.registry import regime_ids


def known_regime_ids() -> tuple[str, ...]:
    """Every regime folder lawcode knows, without loading (and validating) the regimes themselves.

    Loading is lawcode's job and its own tests'; a municipality only needs the id to exist.
    """
    return tuple(regime_ids())


def regime_summary(regime_id: str) -> tuple[str, str]:
    """How people see a regime: its name and the law it applies, e.g. ("Transporte escolar de
    Votuporanga-SP", "Lei nº 5.722, de 22 de dezembro de 2015") — never the internal id."""
    regime = lawcode.get_regime(regime_id)
    return regime.name, regime.main_act.title


def regime_options(regime_ids: list[str]) -> list[tuple[str, str]]:
    """Choices for a form or filter: each regime by its name (the id only travels as the option's value)."""
    return [(regime_id, regime_summary(regime_id)[0]) for regime_id in regime_ids]


def regime_filter_options(regime_ids: list[str]) -> list[tuple[str, str]]:
    """A list filter's choices: "Todos" first, then each regime by its name."""
    return [("", "Todos"), *regime_options(regime_ids)]
