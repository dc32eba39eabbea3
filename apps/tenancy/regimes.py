"""Which lawcode regimes exist, for validating Municipality.regimes; and what each regime's law calls the
things the screens show (its labels.yaml: the instrument, the bodies, the verdicts)."""

from __future__ import annotations

from collections.abc import Iterable

import lawcode
from lawcode.labels import Instrument, Labels
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


# A municipality without a regime yet, or a page about several municipalities, speaks of the act generically.
GENERIC_INSTRUMENT = Instrument(
    name="Autorização",
    plural="Autorizações",
    short="autorização",
    short_plural="autorizações",
    gender="f",
    lookup="Autorização em vigor",
)


def labels_of(regime_id: str) -> Labels:
    """What the regime's law calls its instrument, bodies, verdicts and application kinds (labels.yaml)."""
    return lawcode.get_regime(regime_id).vocabulary.labels


def instrument_of(regime_id: str) -> Instrument:
    return labels_of(regime_id).instrument


def instrument_for(regime_ids: Iterable[str]) -> Instrument:
    """The instrument of a municipality's regimes: the law's own when they agree (or there is one), the names
    joined when they differ (two laws, two names), generic when there is none."""
    found: list[Instrument] = []
    for regime_id in regime_ids:
        instrument = instrument_of(regime_id)
        if all(instrument.name != seen.name for seen in found):
            found.append(instrument)
    if not found:
        return GENERIC_INSTRUMENT
    if len(found) == 1:
        return found[0]
    return Instrument(
        name=" / ".join(item.name for item in found),
        plural=" / ".join(item.plural for item in found),
        short=" / ".join(item.short for item in found),
        short_plural=" / ".join(item.short_plural for item in found),
        gender=found[0].gender,
        lookup=" / ".join(item.lookup for item in found),
    )


def instrument_of_object(subject: object) -> Instrument:
    """The instrument a template speaks of: a permit or case (its ``regime_id``), a municipality (its
    ``regimes``), a regime id, or anything else (generic)."""
    if isinstance(subject, str):
        return instrument_of(subject) if subject else GENERIC_INSTRUMENT
    regime_id = getattr(subject, "regime_id", None)
    if isinstance(regime_id, str) and regime_id:
        return instrument_of(regime_id)
    regimes = getattr(subject, "regimes", None)
    if isinstance(regimes, list | tuple):
        return instrument_for(str(item) for item in regimes)
    return GENERIC_INSTRUMENT
