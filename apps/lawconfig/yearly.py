"""What a municipality's laws will need next year and do not have yet: the turn of the year ("virada do ano").

    missing_values(municipality=m, today=day)      # [] before 1 December, unless this year's is missing too

Nothing here is a list kept by hand: the needs are read from what the municipality's regimes declare —

- a fine unit valued by a table of one value per calendar year (units.yaml ``per_calendar_year``: the UFESP),
  or by a yearly re-indexing percentage (``valued_by: index``): the year needs its own value;
- a fine unit valued by a parameter with no value in force on 1 January (a UFM nobody entered);
- a parameter the law leaves to the municipality whose values so far are a yearly series (each from 1 January:
  a UFM fixed by the yearly decree), or whose value is repealed from 1 January;
- the days without office hours decreed year by year: a calendar that had decreed closures this year expects
  next year's decree.

Each need names the article that asks for it and where to enter it: the installation's screen for a table of the
state or the Union (lawconfig:external_values), the municipality's legal configuration for the others. Shown
from 1 December on the administrators' dashboard (cards.py) and in their daily digest (apps.reports).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.urls import reverse

import lawcode
from apps.lawconfig.config import config_for
from apps.lawconfig.services import municipal_units
from apps.tenancy.models import Municipality
from lawcode.errors import LawcodeError
from lawcode.fiscal import shared_parameters
from lawcode.params import Parameter

WARN_FROM_MONTH = 12  # the administrators are warned from 1 December: the state publishes its values then


@dataclass(frozen=True)
class MissingValue:
    """One value the law will need on ``needed_on`` and that no one has entered yet."""

    key: str  # stable: "ufesp/2027" (deduplicated across the municipality's regimes)
    what: str
    year: int
    needed_on: dt.date
    cite: str
    url: str
    by_installation: bool  # entered once for every municipality by the installation's administrator

    @property
    def who(self) -> str:
        return "administrador da instalação" if self.by_installation else "administrador do município"


def years_to_check(today: dt.date) -> tuple[int, ...]:
    """This year always (a value missing now blocks today's guides); next year from 1 December."""
    return (today.year, today.year + 1) if today.month >= WARN_FROM_MONTH else (today.year,)


def missing_values(*, municipality: Municipality, today: dt.date) -> list[MissingValue]:
    """Every value the municipality's laws need in this year (and, from December, the next) that is missing."""
    found: dict[str, MissingValue] = {}
    for regime_id in municipality.regimes or []:
        regime = lawcode.get_regime(regime_id)
        config = config_for(municipality, regime_id)
        parameters = regime.parameters_with(config)
        for year in years_to_check(today):
            for need in _parameter_needs(municipality, regime, parameters, year):
                found.setdefault(need.key, need)
        if today.month >= WARN_FROM_MONTH:
            closures = _closures_need(municipality, regime, config, today.year + 1)
            if closures is not None:
                found.setdefault(closures.key, closures)
    return sorted(found.values(), key=lambda need: (need.needed_on, not need.by_installation, need.what))


def _yearly_parameters(regime: lawcode.Regime, parameters: Mapping[str, Parameter]) -> dict[str, str]:
    """Parameter → the citation asking for a value each year (or for any value at all)."""
    out: dict[str, str] = {}
    for unit in regime.vocabulary.units.values():
        if unit.parameter in parameters:
            out.setdefault(unit.parameter, unit.cite)
    for name, parameter in parameters.items():
        if parameter.configurable and name not in out and _yearly_series(parameter):
            out[name] = parameter.values[-1].cite
    return out


def _yearly_series(parameter: Parameter) -> bool:
    """At least two values, every one from 1 January of its own year (a yearly decree)."""
    days = [value.effective_from for value in parameter.values]
    return len(days) >= 2 and all((day.month, day.day) == (1, 1) for day in days)


def _every_year(regime: lawcode.Regime, name: str, parameter: Parameter) -> bool:
    """Whether the parameter needs a value dated in each year (not just one in force)."""
    for unit in regime.vocabulary.units.values():
        if unit.parameter == name and (unit.per_calendar_year or unit.valued_by == "index"):
            return True
    return parameter.configurable and _yearly_series(parameter)


def _parameter_needs(
    municipality: Municipality, regime: lawcode.Regime, parameters: Mapping[str, Parameter], year: int
) -> list[MissingValue]:
    first = dt.date(year, 1, 1)
    shared = shared_parameters()
    units = municipal_units(municipality)
    unit_of = {unit.parameter: unit for unit in regime.vocabulary.units.values()}
    needs = []
    for name, cite in _yearly_parameters(regime, parameters).items():
        parameter = parameters[name]
        if _has_value(regime, name, parameter, year):
            continue
        if name in shared:
            url, by_installation = reverse("lawconfig:external_values"), True
        elif parameter.configurable:
            topic = "unidades" if name in unit_of and unit_of[name].key in units else "parametros"
            url = f"{reverse('lawconfig:overview', args=[municipality.ibge_code])}?tema={topic}"
            by_installation = False
        else:
            url, by_installation = "", False  # only a new version of the regime can bring it
        unit = unit_of.get(name)
        if unit is not None and unit.valued_by == "parameter":
            what = f"{unit.label} de {year} — {unit.name}"
        else:
            what = f"{parameter.description}: valor de {year}"
        needs.append(
            MissingValue(
                key=f"{name}/{year}" if name in shared else f"{regime.id}/{name}/{year}",
                what=what,
                year=year,
                needed_on=first,
                cite=_cite(regime, cite, first),
                url=url,
                by_installation=by_installation,
            )
        )
    return needs


def _has_value(regime: lawcode.Regime, name: str, parameter: Parameter, year: int) -> bool:
    if _every_year(regime, name, parameter):
        return any(
            value.value is not None and value.effective_from.year == year for value in parameter.values
        )
    try:
        parameter.value_on(dt.date(year, 1, 1), regime.id)
    except LawcodeError:
        return False
    return True


def _closures_need(
    municipality: Municipality, regime: lawcode.Regime, config: lawcode.Config, year: int
) -> MissingValue | None:
    """Next year's decreed closures, when this year had some (days off are decreed year by year)."""
    calendar = regime.calendar_for(config)
    years = {closure.on.year for closure in calendar.closures}
    if year - 1 not in years or year in years:
        return None
    url = f"{reverse('lawconfig:overview', args=[municipality.ibge_code])}?tema=feriados"
    return MissingValue(
        key=f"closures/{year}",
        what=f"Dias sem expediente de {year} (pontos facultativos e decretos do ano)",
        year=year,
        needed_on=dt.date(year, 1, 1),
        cite="decreto anual do município (calendário de expediente)",
        url=url,
        by_installation=False,
    )


def _cite(regime: lawcode.Regime, ref: str, on: dt.date) -> str:
    try:
        return regime.citer.resolve(ref, on=on).render()
    except LawcodeError:
        return ref
