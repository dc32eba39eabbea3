"""Writes of the legal configuration; each is audited, and each is checked against the regime it configures
(an unknown interpretation option or a citation the law does not have is refused before anything is stored)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
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
from apps.lawconfig.models import (
    ExternalValue,
    FiscalUnitValue,
    InterpretationChoice,
    MunicipalClosure,
    ParameterValue,
)
from apps.tenancy.models import Municipality, is_deployment_admin
from apps.web import plausibility
from apps.web.refusals import refuse
from lawcode.errors import LawcodeError
from lawcode.fiscal import TableRow, shared_parameters
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
    reason: str = "",
    as_of: dt.date | None = None,
) -> FiscalUnitValue:
    """Add a value of a unit the law leaves to the municipality (``unit``: its key in units.yaml, optional when
    there is only one); older values stay for decisions about earlier dates. A value for a date that already has
    one is a correction: a new entry superseding it (history is never edited); the same value again is a no-op."""
    if value_brl <= 0:
        raise refuse("value_brl", "Valor em reais: deve ser maior que zero.")
    chosen = _chosen_unit(municipality, unit)
    _check_cite(municipality, chosen, cite)
    if not source.strip():
        raise refuse("source", "Ato que fixou o valor: informe o decreto ou a portaria.")
    current = (
        FiscalUnitValue.objects.current()
        .select_for_update(of=("self",))
        .filter(municipality=municipality, unit=chosen.key, valid_from=valid_from)
        .first()
    )
    if current is not None and (current.value_brl, current.cite, current.source) == (value_brl, cite, source):
        _changed(actor, municipality, as_of)  # nothing new to store; what waits for the value is tried again
        return current
    row = FiscalUnitValue(
        municipality=municipality,
        unit=chosen.key,
        valid_from=valid_from,
        value_brl=value_brl,
        cite=cite,
        source=source.strip(),
        supersedes=current,
        reason=_correction_reason(current, reason),
    )
    before = current.audit_snapshot() if current is not None else None
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
    reason: str = "",
    as_of: dt.date | None = None,
) -> ParameterValue:
    """Add a value of a parameter the regime leaves to the municipality (an index, a tariff, a cap). A value for a
    date that already has one is a correction: a new entry superseding it (history is never edited); the same
    value again is a no-op."""
    spec = configurable_parameter(municipality, regime_id, parameter)
    _check_value(spec, value)
    _check_regime_cite(regime_id, cite)
    if not source.strip():
        raise refuse("source", "Ato: informe o decreto ou a portaria que fixou o valor.")
    current = (
        ParameterValue.objects.current()
        .select_for_update(of=("self",))
        .filter(municipality=municipality, regime_id=regime_id, parameter=parameter, valid_from=valid_from)
        .first()
    )
    if current is not None and (current.value, current.cite, current.source) == (value, cite, source.strip()):
        _changed(actor, municipality, as_of)  # nothing new to store; what waits for the value is tried again
        return current
    row = ParameterValue(
        municipality=municipality,
        regime_id=regime_id,
        parameter=parameter,
        valid_from=valid_from,
        value=value,
        cite=cite,
        source=source.strip(),
        supersedes=current,
        reason=_correction_reason(current, reason),
    )
    before = current.audit_snapshot() if current is not None else None
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


def _correction_reason(current: Any, reason: str) -> str:
    """Why an entry supersedes ``current`` (the administrator's words, or that it corrects the earlier one)."""
    if current is None:
        return reason.strip()
    shown = f"{current.valid_from:%d/%m/%Y}"
    return reason.strip() or f"corrige o valor registrado antes para a vigência de {shown}"


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


# --- tables of the state or the Union, kept once per installation (the UFESP) --------------------------------


def shared_table(parameter: str) -> Parameter:
    """The engine's shared table ``parameter`` (lawcode.fiscal.shared_parameters), or a refusal naming it."""
    table = shared_parameters().get(parameter)
    if table is None:
        raise refuse("parameter", f"Tabela: {parameter!r} não é uma tabela estadual ou federal do engine.")
    return table


def municipalities_using(parameter: str) -> list[Municipality]:
    """Every municipality one of whose regimes values a fine unit by the shared table ``parameter``."""
    from apps.lawconfig.config import shared_tables_used

    using = {
        regime_id
        for regime_id in lawcode.regime_ids()
        if parameter in shared_tables_used(lawcode.get_regime(regime_id))
    }
    return [m for m in Municipality.objects.order_by("pk") if using.intersection(m.regimes or [])]


@sensitive_service
@transaction.atomic
def external_value_enter(
    *,
    actor: Actor,
    parameter: str,
    valid_from: dt.date,
    value: Decimal,
    act: str,
    published_on: dt.date,
    act_date: dt.date | None = None,
    publication: str = "",
    reason: str = "",
    act_key: str = "",
    as_of: dt.date | None = None,
) -> ExternalValue:
    """Enter a dated value of a table of the state or the Union (the UFESP), for the whole installation.

    Only the installation's administrator (or ``actor`` None: a seed or the loading command) may. A value for a
    date that already has one is a correction: a NEW entry superseding it, with its ``reason``; the entry it
    corrects stays, for the audit and for the decisions that used it. The same value and act again changes
    nothing (returns the current entry). Every municipality whose law uses the table is told, in this
    transaction (hooks.configuration_changed), so what waited for the value is settled at once."""
    if actor is not None and not is_deployment_admin(actor):
        raise refuse(
            "parameter", "Tabela: só o administrador da instalação registra valores estaduais ou federais."
        )
    table = shared_table(parameter)
    _check_value(table, value)
    act, publication, reason = act.strip(), publication.strip(), reason.strip()
    if not act:
        raise refuse("act", "Ato que fixou o valor: informe o ato (ex.: Comunicado DICAR-90/26 da SEFAZ-SP).")
    if act_date is not None and published_on < act_date:
        raise refuse("published_on", "Publicado em: a publicação não pode ser anterior à data do ato.")
    if published_on > valid_from and not reason:
        # a retroactive value is possible (a late comunicado) but must say why
        raise refuse(
            "reason",
            "Motivo: o ato foi publicado depois do início da vigência; explique (valor retroativo).",
        )
    current = (
        ExternalValue.objects.current()
        .select_for_update(of=("self",))
        .filter(parameter=parameter, valid_from=valid_from)
        .first()
    )
    same = (current.value, current.act, current.published_on) if current is not None else None
    if current is not None and same == (value, act, published_on):
        # nothing new to store; what waits for the value is tried again
        for municipality in municipalities_using(parameter):
            _changed(actor, municipality, as_of)
        return current
    if current is not None and not reason:
        raise refuse(
            "reason",
            f"Motivo da correção: já há valor vigente a partir de {valid_from:%d/%m/%Y}; diga por que o corrige.",
        )
    row = ExternalValue(
        parameter=parameter,
        valid_from=valid_from,
        value=value,
        act=act,
        act_date=act_date,
        published_on=published_on,
        publication=publication,
        act_key=act_key,
        supersedes=current,
        reason=reason,
    )
    row.full_clean(validate_constraints=False)
    row.save()
    audit_record(
        actor=actor,
        municipality=None,
        action="lawconfig.external_value.enter",
        obj=row,
        before=current.audit_snapshot() if current is not None else None,
        after=row.audit_snapshot(),
    )
    for municipality in municipalities_using(parameter):
        _changed(actor, municipality, as_of)
    return row


@dataclass(frozen=True)
class TableLoad:
    """What external_values_load did: entries added, corrected, and rows already there."""

    added: int
    corrected: int
    unchanged: int


@transaction.atomic
def external_values_load(
    *, actor: Actor, parameter: str, rows: tuple[TableRow, ...], file_name: str, as_of: dt.date | None = None
) -> TableLoad:
    """Load a yearly table (the shape of lawcode/data/ufesp.csv): each row a value from 1 January of its year.
    Idempotent: a row equal to the current entry is left alone; a different one is a correction citing the
    file. All or nothing: one refused row refuses the file."""
    from lawcode.acts import external_acts
    from lawcode.fiscal import comunicado_key

    shipped = external_acts()
    added = corrected = unchanged = 0
    for row in rows:
        try:
            key = comunicado_key(row.source)
        except LawcodeError:
            key = ""
        act_key = key if key in shipped else ""
        published = row.published or (shipped[act_key].published if act_key else None)
        if published is None:
            raise refuse(
                "source",
                f"Linha {row.line}, coluna source: informe a data de publicação do ato como (dd-mm-aaaa).",
            )
        current = (
            ExternalValue.objects.current().filter(parameter=parameter, valid_from=row.valid_from).first()
        )
        entry = external_value_enter(
            actor=actor,
            parameter=parameter,
            valid_from=row.valid_from,
            value=row.value,
            act=row.act,
            published_on=published,
            act_key=act_key,
            reason=f"carga do arquivo {file_name}, linha {row.line}"
            if current is not None or published > row.valid_from
            else "",
            as_of=as_of,
        )
        if current is None:
            added += 1
        elif entry.pk == current.pk:
            unchanged += 1
        else:
            corrected += 1
    return TableLoad(added, corrected, unchanged)
