"""The municipality's law configuration as lawcode sees it: a lawcode Config per (municipality, regime).

    config_for(m).parameters          calendar_for(m).is_business_day(day)

config_for() turns the municipality's rows (UFM table, parameters the law leaves to the municipality,
interpretation choices, holidays, closures, early closings) and the installation's tables of the state or the
Union its law uses (the UFESP: models.ExternalValue, each value cited to the act entered with it) into a lawcode
Config, so the engine decides with
the municipality's own values and readings. citation_text() renders a dispositivo as the engine cites it.
Deciding is not here: the law is asked through apps.lawconfig.engine, by each app's lawbridge module.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import lawcode
from apps.lawconfig.choices import ClosureKind
from apps.lawconfig.models import (
    ConfigStamp,
    ExternalValue,
    FiscalUnitValue,
    InterpretationChoice,
    MunicipalClosure,
)
from apps.lawconfig.models import ParameterValue as ParameterRow
from apps.tenancy.models import Municipality
from lawcode.calendar import LegalCalendar
from lawcode.config import Config, DatedEntry, DeclaredAct
from lawcode.fiscal import shared_parameters
from lawcode.params import ParameterValue


class RegimeChoiceError(ValueError):
    """The regime to ask could not be determined for the municipality (none, several, or not its own)."""

    def __init__(self, message_pt: str) -> None:
        super().__init__(message_pt)
        self.message_pt = message_pt


def regime_for(municipality: Municipality, regime_id: str | None = None) -> str:
    """The regime to ask: the one given (if the municipality runs it) or the municipality's only regime."""
    regimes = list(municipality.regimes or [])
    if regime_id is not None:
        if regime_id not in regimes:
            raise RegimeChoiceError(f"{municipality} não aplica o regime {regime_id!r}.")
        return regime_id
    if len(regimes) != 1:
        shown = ", ".join(regimes) or "nenhum"
        raise RegimeChoiceError(f"Informe o regime: {municipality} aplica {shown}.")
    return str(regimes[0])


# Inside configs_remembered(): the configs already read, by (municipality, regime).
_REMEMBERED: ContextVar[dict[tuple[int, str], Config] | None] = ContextVar(
    "lawconfig_remembered", default=None
)


@contextmanager
def configs_remembered() -> Iterator[None]:
    """Read each municipality's configuration once for the whole block: one write that asks the law several
    questions (an approval: the application, the validity, the inspection calendar) within one transaction,
    where the configuration cannot change under it."""
    token = _REMEMBERED.set({}) if _REMEMBERED.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _REMEMBERED.reset(token)


# The last Config this process built, by (municipality, regime), with the stamp it was built under.
_BUILT: dict[tuple[int, str], tuple[str, Config]] = {}


def config_for(
    municipality: Municipality, regime_id: str | None = None, *, stamp: str | None = None
) -> Config:
    """The municipality's overrides for one regime (its only regime when not given).

    ``stamp``: the municipality's ConfigStamp token as the caller just read it from the database, in the same
    statement as the rows it decides on (the public lookup's SELECT, issue 12), so it is not read again; "" for
    no stamp. Never a token kept from an earlier request: that would serve a stale configuration."""
    chosen = regime_for(municipality, regime_id)
    remembered = _REMEMBERED.get()
    if remembered is None:
        return _current_config(municipality, chosen, stamp)
    key = (municipality.pk, chosen)
    if key not in remembered:
        remembered[key] = _current_config(municipality, chosen, stamp)
    return remembered[key]


def _current_config(municipality: Municipality, regime_id: str, stamp: str | None = None) -> Config:
    """The configuration as the database holds it now: one read of the stamp, and the rows only when the stamp
    changed since this process last built the Config.

    Never stale, because the stamp is read at each call (not taken from the caller's Municipality instance,
    which may have been loaded long before, or be cached) and database triggers change it with every write to
    any configuration row, whoever writes (models.ConfigStamp). A token is random and never reused, so one
    written by a transaction that rolled back can never match later rows. The Config is kept only if the stamp
    is the same after the rows were read: a change committed between the two reads is not cached under the
    older token. Rows and stamp go through the same router, so a replica serves both from one consistent state.
    """
    key = (municipality.pk, regime_id)
    token = _stamp(municipality) if stamp is None else stamp
    built = _BUILT.get(key)
    if built is not None and built[0] == token:
        return built[1]
    config = _config(municipality, regime_id)
    # A missing stamp ("") is never trusted: a deleted row only changes an existing stamp (migration 0004).
    if token and _stamp(municipality) == token:
        _BUILT[key] = (token, config)
    return config


def _stamp(municipality: Municipality) -> str:
    """ "" when the municipality has no stamp (every municipality gets one when created; see migration 0004)."""
    tokens = ConfigStamp.objects.filter(municipality_id=municipality.pk).values_list("token", flat=True)
    return next(iter(tokens[:1]), "")


def _config(municipality: Municipality, regime_id: str) -> Config:
    regime = lawcode.get_regime(regime_id)
    dated = _dated(municipality)
    shared, acts = external_parameters(regime)
    parameters = _parameters(municipality, regime)
    for name, values in shared.items():
        parameters[name] = values + parameters.get(name, ())
    return Config(
        parameters=parameters,
        acts=acts,
        interpretations=_interpretations(municipality, regime.id),
        municipal_holidays=dated.get(ClosureKind.HOLIDAY, ()),
        closures=dated.get(ClosureKind.CLOSURE, ()),
        early_closings=dated.get(ClosureKind.EARLY_CLOSING, ()),
    )


def calendar_for(municipality: Municipality, regime_id: str | None = None) -> LegalCalendar:
    """Days with and without office hours: regime calendar + municipal holidays, closures and early closings."""
    chosen = regime_for(municipality, regime_id)
    return lawcode.get_regime(chosen).calendar_for(config_for(municipality, chosen))


def citation_text(municipality: Municipality, regime_id: str | None, ref: str, on: dt.date) -> str:
    """A dispositivo as the engine cites it on ``on`` ("Lei 5.722/2015 (Votuporanga), art. 4º, § 5º"), in the
    wording the municipality's interpretation choices date; an unknown ``ref`` raises UnknownDispositivoError."""
    chosen = regime_for(municipality, regime_id)
    citer = lawcode.get_regime(chosen).citer_for(config_for(municipality, chosen))
    return citer.resolve(ref, on=on).render()


def _parameters(municipality: Municipality, regime: lawcode.Regime) -> dict[str, tuple[ParameterValue, ...]]:
    """The unit table (UFM…), then the configured parameters (which win over the table on the same date)."""
    merged = dict(_fiscal_parameters(municipality, regime))
    for name, values in _configured(municipality, regime).items():
        merged[name] = merged.get(name, ()) + values
    return merged


def shared_tables_used(regime: lawcode.Regime) -> list[str]:
    """The engine's shared tables (the UFESP) a unit of the regime is valued by (units.yaml)."""
    shared = shared_parameters()
    return sorted({unit.parameter for unit in regime.vocabulary.units.values() if unit.parameter in shared})


def external_parameters(
    regime: lawcode.Regime,
) -> tuple[dict[str, tuple[ParameterValue, ...]], tuple[DeclaredAct, ...]]:
    """The installation's current entries of the shared tables the regime uses, as Config values citing their
    acts. An entry equal to what the engine ships (same date, value and act: the seed of migration 0006) is left
    out, so a decision records only what the code does not already know."""
    names = shared_tables_used(regime)
    if not names:
        return {}, ()
    shipped = {
        (name, value.effective_from): (value.value, value.cite)
        for name in names
        for value in regime.parameters[name].values
    }
    values: dict[str, tuple[ParameterValue, ...]] = {}
    acts: list[DeclaredAct] = []
    rows = ExternalValue.objects.current().filter(parameter__in=names).order_by("valid_from", "pk")
    for row in rows:
        if shipped.get((row.parameter, row.valid_from)) == (row.value, row.act_key) and row.act_key:
            continue
        if not row.act_key:
            acts.append(DeclaredAct(row.citation_key, row.act, row.cite_as, row.published_on, row.valid_from))
        note = f"{row.cite_as}" + (f" (corrige registro anterior: {row.reason})" if row.supersedes_id else "")
        value = ParameterValue(
            row.valid_from, row.value, row.citation_key, "V", note, f"lawconfig.ExternalValue#{row.pk}"
        )
        values[row.parameter] = values.get(row.parameter, ()) + (value,)
    return values, tuple(acts)


def _configured(municipality: Municipality, regime: lawcode.Regime) -> dict[str, tuple[ParameterValue, ...]]:
    """Values the municipality set for the parameters its regime marks ``configurable``."""
    rows = (
        ParameterRow.objects.current()
        .filter(municipality=municipality, regime_id=regime.id)
        .order_by("valid_from")
    )
    out: dict[str, tuple[ParameterValue, ...]] = {}
    for row in rows:
        parameter = regime.parameters.get(row.parameter)
        if parameter is None or not parameter.configurable:
            continue  # a parameter the regime no longer leaves to the municipality: the law's value applies
        value = ParameterValue(
            row.valid_from, row.value, row.cite, "V", row.source, f"lawconfig.ParameterValue#{row.pk}"
        )
        out[row.parameter] = out.get(row.parameter, ()) + (value,)
    return out


def _fiscal_parameters(
    municipality: Municipality, regime: lawcode.Regime
) -> dict[str, tuple[ParameterValue, ...]]:
    """The unit table, for the units the regime declares valued by a parameter (others would reject it)."""
    out: dict[str, tuple[ParameterValue, ...]] = {}
    for key, unit in regime.vocabulary.units.items():
        if unit.valued_by != "parameter" or unit.parameter not in regime.parameters:
            continue
        rows = (
            FiscalUnitValue.objects.current()
            .filter(municipality=municipality, unit=key)
            .order_by("valid_from")
        )
        values = tuple(
            ParameterValue(
                row.valid_from,
                row.value_brl,
                row.cite,
                "V",
                row.source,
                f"lawconfig.FiscalUnitValue#{row.pk}",
            )
            for row in rows
        )
        if values:
            out[unit.parameter] = values
    return out


def _interpretations(municipality: Municipality, regime_id: str) -> dict[str, str]:
    rows = InterpretationChoice.objects.filter(municipality=municipality, regime_id=regime_id)
    return {row.interpretation_id: row.option for row in rows}


def _dated(municipality: Municipality) -> dict[str, tuple[DatedEntry, ...]]:
    """Holidays, closures and early closings, by kind, in date order: one query for the three."""
    by_kind: dict[str, tuple[DatedEntry, ...]] = {}
    for row in MunicipalClosure.objects.filter(municipality=municipality).order_by("date"):
        by_kind[row.kind] = by_kind.get(row.kind, ()) + (DatedEntry(row.date, row.description),)
    return by_kind
