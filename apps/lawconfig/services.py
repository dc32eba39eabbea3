"""Writes of the legal configuration; each is audited, and each is checked against the regime it configures
(an unknown interpretation option or a citation the law does not have is refused before anything is stored)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone

import lawcode
from apps.accounts.actors import Actor
from apps.accounts.stepup import sensitive_service
from apps.audit.services import audit_record
from apps.lawconfig import hooks
from apps.lawconfig.choices import ClosureKind
from apps.lawconfig.models import FiscalUnitValue, InterpretationChoice, MunicipalClosure, ParameterValue
from apps.tenancy.models import Municipality
from apps.web import plausibility
from apps.web.refusals import refuse
from lawcode.errors import LawcodeError
from lawcode.params import Parameter
from lawcode.units import FineUnit, Unit

_Row = TypeVar("_Row", FiscalUnitValue, InterpretationChoice, MunicipalClosure, ParameterValue)


def municipal_units(municipality: Municipality) -> dict[str, FineUnit]:
    """Units the municipality's regimes declare and leave to it: valued by a parameter the law marks
    ``configurable`` (a UFM, a tariff set by decree). The UFESP is the state's table, not the town's."""
    units: dict[str, FineUnit] = {}
    for regime in _regimes(municipality):
        for key, unit in regime.vocabulary.units.items():
            parameter = regime.parameters.get(unit.parameter)
            if unit.valued_by == "parameter" and parameter is not None and parameter.configurable:
                units.setdefault(key, unit)
    return units


def _regimes(municipality: Municipality) -> list[lawcode.Regime]:
    return [lawcode.get_regime(regime_id) for regime_id in municipality.regimes or []]


def _chosen_unit(municipality: Municipality, unit: str | None) -> FineUnit:
    units = municipal_units(municipality)
    if not units:
        raise refuse(
            "value_brl",
            "Nenhum regime deste município usa uma unidade fiscal fixada pelo município (como a UFM).",
        )
    if not unit and len(units) == 1:
        return next(iter(units.values()))
    if unit not in units:
        shown = ", ".join(u.label for u in units.values())
        raise refuse("unit", f"Unidade: escolha uma das unidades que a lei deixa ao município ({shown}).")
    return units[unit]


def _check_cite(municipality: Municipality, unit: FineUnit, cite: str) -> None:
    for regime in _regimes(municipality):
        if unit.key not in regime.vocabulary.units:
            continue
        try:
            regime.citer.validate(cite)
        except LawcodeError:
            raise refuse("cite", f"Dispositivo: {cite!r} não existe na lei do regime {regime.id}.") from None


@sensitive_service
@transaction.atomic
def fiscal_unit_value_set(
    *,
    actor: Actor,
    municipality: Municipality,
    valid_from: dt.date,
    value_brl: Decimal,
    cite: str,
    source: str,
    unit: str | None = None,
    as_of: dt.date | None = None,
) -> FiscalUnitValue:
    """Add (or correct, same date) a value of a unit the law leaves to the municipality (``unit``: its key in
    units.yaml, optional when there is only one); older values stay for decisions about earlier dates."""
    if value_brl <= 0:
        raise refuse("value_brl", "Valor em reais: deve ser maior que zero.")
    chosen = _chosen_unit(municipality, unit)
    _check_cite(municipality, chosen, cite)
    row: FiscalUnitValue = _row_for(FiscalUnitValue, municipality, unit=chosen.key, valid_from=valid_from)
    before = row.audit_snapshot() if row.pk else None
    row.value_brl, row.cite, row.source = value_brl, cite, source
    _store(
        row,
        actor=actor,
        municipality=municipality,
        action="lawconfig.fiscal_unit.set",
        before=before,
        as_of=as_of,
    )
    return row


def configurable_parameter(municipality: Municipality, regime_id: str, name: str) -> Parameter:
    """The regime's parameter ``name`` if the municipality runs the regime and the law leaves it to the town."""
    if regime_id not in municipality.regimes:
        raise refuse("parameter", f"Regime: {municipality} não aplica {regime_id!r}.")
    parameter = lawcode.get_regime(regime_id).parameters.get(name)
    if parameter is None or not parameter.configurable:
        raise refuse("parameter", f"Parâmetro: {name!r} não é fixado pelo município no regime {regime_id}.")
    return parameter


def _check_value(parameter: Parameter, value: Decimal) -> None:
    """Money and percentages take decimals (a 5,56 % INPC re-indexing); a reajuste may be zero or negative
    (deflation) but never take away the whole amount; counts, days and years are positive whole numbers."""
    if parameter.unit is Unit.PERCENT:
        if value <= -100:
            raise refuse("value", f"Valor: {parameter.description} deve ser maior que -100 %.")
        return
    if value <= 0:
        raise refuse("value", "Valor: deve ser maior que zero.")
    if not parameter.unit.is_money and value != value.to_integral_value():
        raise refuse("value", f"Valor: {parameter.description} é um número inteiro.")


def _check_regime_cite(regime_id: str, cite: str) -> None:
    try:
        lawcode.get_regime(regime_id).citer.validate(cite)
    except LawcodeError:
        raise refuse("cite", f"Dispositivo: {cite!r} não existe na lei do regime {regime_id}.") from None


@sensitive_service
@transaction.atomic
def parameter_value_set(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    parameter: str,
    valid_from: dt.date,
    value: Decimal,
    cite: str,
    source: str,
    as_of: dt.date | None = None,
) -> ParameterValue:
    """Add (or correct, same date) a value of a parameter the regime leaves to the municipality."""
    spec = configurable_parameter(municipality, regime_id, parameter)
    _check_value(spec, value)
    _check_regime_cite(regime_id, cite)
    if not source.strip():
        raise refuse("source", "Ato: informe o decreto ou a portaria que fixou o valor.")
    row: ParameterValue = _row_for(
        ParameterValue, municipality, regime_id=regime_id, parameter=parameter, valid_from=valid_from
    )
    before = row.audit_snapshot() if row.pk else None
    row.value, row.cite, row.source = value, cite, source.strip()
    _store(
        row,
        actor=actor,
        municipality=municipality,
        action="lawconfig.parameter.set",
        before=before,
        as_of=as_of,
    )
    return row


@sensitive_service
@transaction.atomic
def interpretation_choose(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    interpretation_id: str,
    option: str,
    decided_by_act: str,
    decided_on: dt.date,
    as_of: dt.date | None = None,
) -> InterpretationChoice:
    """Record the municipality's reading of an INT-…; choosing the default again is recorded too."""
    if regime_id not in municipality.regimes:
        raise refuse("regime_id", f"Regime: {municipality} não aplica {regime_id!r}.")
    interpretation = lawcode.get_regime(regime_id).interpretations.get(interpretation_id)
    if interpretation is None:
        raise refuse("interpretation_id", f"Interpretação: {interpretation_id!r} não existe em {regime_id}.")
    if option not in interpretation.options:
        raise refuse("option", f"Opção: {option!r} não é uma das opções de {interpretation_id}.")
    if not decided_by_act.strip():
        raise refuse("decided_by_act", "Ato que decidiu: informe o parecer, decreto ou portaria.")
    row: InterpretationChoice = _row_for(
        InterpretationChoice, municipality, regime_id=regime_id, interpretation_id=interpretation_id
    )
    before = row.audit_snapshot() if row.pk else None
    row.option, row.decided_by_act, row.decided_on = option, decided_by_act, decided_on
    _store(
        row,
        actor=actor,
        municipality=municipality,
        action="lawconfig.interpretation.choose",
        before=before,
        as_of=as_of,
    )
    return row


def _plausible_closure_date(municipality: Municipality, date: dt.date, as_of: dt.date) -> None:
    """Not before the municipality's first law in force (no deadline of it can cross an earlier day), not after
    the end of next year (closures are decreed for the current year and the next)."""
    laws = [lawcode.get_regime(regime_id) for regime_id in municipality.regimes]
    first = min(laws, key=lambda law: law.in_force, default=None)
    plausibility.check_date(
        date,
        field="date",
        label="Data",
        not_before=first.in_force if first else None,
        because=f"anterior à vigência da lei, {first.main_act.cite_as}, em {plausibility.ddmmyyyy(first.in_force)}"
        if first
        else "",
        not_after=dt.date(as_of.year + 1, 12, 31),
        after_because="dias sem expediente se cadastram até o fim do ano seguinte",
    )


@sensitive_service
@transaction.atomic
def closure_add(
    *,
    actor: Actor,
    municipality: Municipality,
    date: dt.date,
    description: str,
    kind: str,
    as_of: dt.date | None = None,
) -> MunicipalClosure:
    if kind not in ClosureKind.values:
        raise refuse("kind", "Tipo: escolha feriado, sem expediente ou expediente reduzido.")
    _plausible_closure_date(municipality, date, as_of or timezone.localdate())
    if MunicipalClosure.objects.filter(municipality=municipality, date=date).exists():
        raise refuse("date", f"Data: {date:%d/%m/%Y} já está cadastrada.")
    row = MunicipalClosure(municipality=municipality, date=date, description=description, kind=kind)
    _store(
        row, actor=actor, municipality=municipality, action="lawconfig.closure.add", before=None, as_of=as_of
    )
    return row


@sensitive_service
@transaction.atomic
def closure_remove(*, actor: Actor, closure: MunicipalClosure, as_of: dt.date | None = None) -> None:
    before, object_id, municipality = closure.audit_snapshot(), str(closure.pk), closure.municipality
    closure.delete()
    audit_record(
        actor=actor,
        municipality=municipality,
        action="lawconfig.closure.remove",
        object_type="lawconfig.municipalclosure",
        object_id=object_id,
        before=before,
    )
    _changed(actor, municipality, as_of)


def _row_for(model: type[_Row], municipality: Municipality, **key: Any) -> _Row:
    """The municipality's row under ``key`` (a value corrected on the same date), or a new unsaved one.

    Callers annotate the name they bind it to: that is how tools/model_docs.py knows which model they write."""
    row = model.objects.filter(municipality=municipality, **key).first()
    return row if row is not None else model(municipality=municipality, **key)


def _store(
    row: _Row,
    *,
    actor: Actor,
    municipality: Municipality,
    action: str,
    before: dict[str, Any] | None,
    as_of: dt.date | None,
) -> None:
    """Every write of a configuration row the same way: field checks (the constraints are the services'),
    save, the audit event, then the re-judging the change calls for."""
    row.full_clean(validate_constraints=False)
    row.save()
    audit_record(
        actor=actor,
        municipality=municipality,
        action=action,
        obj=row,
        before=before,
        after=row.audit_snapshot(),
    )
    _changed(actor, municipality, as_of)


def _changed(actor: Actor, municipality: Municipality, as_of: dt.date | None) -> None:
    """What was stored from the law's answers under the old configuration is re-judged as of ``as_of`` (the day
    the change takes effect: today unless given), in this transaction.

    The configuration binds from the moment it is stored (interpretations are not dated); a parameter dated in
    the future does not move a judgment of an earlier day, and the days it will reach are judged when they come."""
    hooks.configuration_changed(actor, municipality, as_of or timezone.localdate())
