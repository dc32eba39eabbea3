"""The effects of a sanction, applied from what the regime declares (``penalties.yaml``, lawcode.penalties) and
never from a list of its own: each penalty the decision names has a *mechanism* (suspension, cassation, ban,
seizure…), a target (the case's permit, every permit of the operator, the vehicle) and a moment (when the auto is
registered, or at finality). Permits change through licensing's services, bans through the registry's.

One ``Effect`` row per penalty and target says what was done. An effect that cannot apply (no permit on the
case, the permit already revoked, the period over before the decision was recorded, a suspension with no days,
the clandestine offender not in the registry) is kept as «não aplicado» with the reason and a line on the case
timeline — never dropped silently. A suspension whose period overlaps one already imposed (running, or served
and over since the sweep reactivated the permit) runs after it (same number of days); a permit renewed or
substituted carries its suspensions to the new permit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Max

from apps.accounts.actors import Actor
from apps.audit.services import audit_record
from apps.dueprocess import lawbridge
from apps.dueprocess.choices import EffectKind, EffectState
from apps.dueprocess.models import Effect, Sanction
from apps.enforcement.choices import EventKind
from apps.enforcement.models import InfractionCase
from apps.enforcement.regime_rules import cite_pt
from apps.enforcement.services import case_event_add
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.licensing.services import permit_reactivate, permit_revoke, permit_suspend
from apps.registry.identifiers import normalize_cnpj, normalize_cpf
from apps.registry.models import Company, Person
from apps.registry.services import ban_record
from apps.tenancy.regimes import instrument_of
from lawcode.errors import RegimeDefinitionError
from lawcode.penalties import PenaltyCatalog, PenaltyKind
from lawcode.registry import get_regime

IN_FORCE = (PermitState.ACTIVE, PermitState.SUSPENDED)
SUSPENDING = frozenset({"suspension", "precautionary_suspension"})
Applier = Callable[
    [PenaltyKind, dict[str, Any], InfractionCase, Sanction | None, Actor, dt.date], list[Effect]
]
RUNNING = (EffectState.APPLIED, EffectState.QUEUED)


def catalog(regime_id: str) -> PenaltyCatalog:
    """The regime's declared penalties; a regime that sanctions without declaring them is a loud error."""
    penalties = get_regime(regime_id).penalties
    if penalties is None:
        raise RegimeDefinitionError(
            f"regime {regime_id} declares no penalties.yaml",
            message_pt="o regime não declara suas penalidades",
        )
    return penalties


def effect(kind: str, note: str, **data: Any) -> dict[str, Any]:
    """One line of ``Sanction.effects``, the summary kept with the sanction (the rows are ``Effect``)."""
    return {"kind": kind, "label": EffectKind(kind).label, "note": note, **data}


# --- entry points ---------------------------------------------------------------------------------------------


def apply(*, sanction: Sanction, case: InfractionCase, actor: Actor, as_of: dt.date) -> list[dict[str, Any]]:
    """Apply the final sanction's effects (those applied when the auto was registered are not applied twice)."""
    Effect.objects.filter(case=case, sanction__isnull=True).update(sanction=sanction)  # applied at the auto
    _end_proceeding_suspensions(case, actor, as_of)
    final_keys = (
        {str(item.get("kind")) for item in sanction.penalties} if sanction.outcome == "penalty" else set()
    )
    dropped = Effect.objects.filter(case=case, state__in=RUNNING).exclude(penalty_key__in=final_keys)
    if dropped.exists():  # the final decision no longer imposes what the auto applied at once
        lift_case_effects(
            case=case,
            actor=actor,
            as_of=as_of,
            reason="a decisão definitiva não a mantém",
            keys=set(dropped.values_list("penalty_key", flat=True)),
        )
    if sanction.outcome != "penalty":
        return []
    done: list[dict[str, Any]] = []
    applied = set(Effect.objects.filter(case=case).values_list("penalty_key", flat=True))
    for item, kind in declared_items(case.regime_id, sanction.penalties):
        if kind.key in applied:
            continue
        done += [
            line for row in _apply_one(kind, item, case, sanction, actor, as_of) if (line := _summary(row))
        ]
    return done


def apply_immediate(case: InfractionCase, actor: Actor, as_of: dt.date) -> None:
    """When the auto is registered: the penalties the law makes immediate (``applies: at_auto``), with the
    dates the engine gives before any decision (Olímpia art. 24 sole §: suspension from the infraction)."""
    penalties = get_regime(case.regime_id).penalties  # None only for a regime that does not sanction
    if penalties is None or not any(kind.immediate for kind in penalties.kinds.values()):
        return
    try:
        decision = lawbridge.sanction(case, None, as_of)
    except ValidationError as error:  # the law cannot decide it yet: the auto stands, the case says why
        _event(case, actor, as_of, f"Efeito imediato não aplicado: {' '.join(error.messages)}")
        return
    items = decision.to_dict()["result"].get("penalties") or [] if decision.outcome == "penalty" else []
    for item, kind in declared_items(case.regime_id, items):
        if kind.immediate:
            _apply_one(kind, item, case, None, actor, as_of)


def apply_after_instance(
    *,
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
    items: list[dict[str, Any]],
) -> list[Effect]:
    """Condemned by an instance whose next appeal has no suspensive effect (procedure.yaml ``suspensive:
    false``): the penalties take effect now, not at finality, and the case says why with the article. The fine
    is not charged here: that is what ``fine_due_on_first_condemnation`` declares. Applied once: finality does
    not apply them again, and a granted appeal lifts them."""
    due_process = get_regime(case.regime_id).procedure.due_process
    applied = set(Effect.objects.filter(case=case).values_list("penalty_key", flat=True))
    rows: list[Effect] = []
    for item, kind in declared_items(case.regime_id, items):
        if kind.key in applied or kind.mechanism == "fine":
            continue
        rows += _apply_one(kind, item, case, sanction, actor, as_of)
    if rows:
        render = lambda ref: cite_pt(case.regime_id, ref, as_of)  # noqa: E731
        _event(case, actor, as_of, due_process.effects_explanation_pt(render))
    return rows


def _end_proceeding_suspensions(case: InfractionCase, actor: Actor, as_of: dt.date) -> None:
    """A precautionary suspension that lasts while the proceeding runs (penalties.yaml ``days: proceeding``)
    ends when the decision is final."""
    penalties = get_regime(case.regime_id).penalties
    keys = {k.key for k in penalties.kinds.values() if k.for_proceeding} if penalties is not None else set()
    if keys and Effect.objects.filter(case=case, state__in=RUNNING, penalty_key__in=keys).exists():
        lift_case_effects(
            case=case,
            actor=actor,
            as_of=as_of,
            reason="a suspensão cautelar durava enquanto durasse o processo, encerrado pela decisão definitiva",
            keys=keys,
        )


def declared_items(
    regime_id: str, items: Iterable[dict[str, Any]]
) -> list[tuple[dict[str, Any], PenaltyKind]]:
    penalties = catalog(regime_id)
    return [(item, penalties.get(str(item.get("kind")))) for item in items]


def lift_case_effects(
    *, case: InfractionCase, actor: Actor, as_of: dt.date, reason: str, keys: set[str] | None = None
) -> list[Effect]:
    """The case was cancelled (appeal granted), or its final decision dropped a penalty applied at the auto
    (``keys``): the suspensions end today, the seizure is released."""
    lifted = []
    rows = Effect.objects.filter(case=case, state__in=RUNNING).select_related("permit")
    for row in rows.filter(penalty_key__in=keys) if keys is not None else rows:
        suspending = row.mechanism in SUSPENDING and row.permit is not None
        if not suspending and row.mechanism != "seizure":
            continue
        if suspending and (row.ends_on is None or row.ends_on >= as_of):
            _end_suspension(row, actor, as_of, reason)
        row.state, row.ended_on = EffectState.LIFTED, as_of
        row.note = f"{row.note} Levantado em {as_of:%d/%m/%Y}: {reason}."
        row.save(update_fields=["state", "ended_on", "note"])
        _audit(row, actor, "effect.lift")
        _event(case, actor, as_of, f"{row.label} levantada: {reason}.")
        lifted.append(row)
    return lifted


def carry_to_successor(old: Permit, new: Permit, actor: Actor, as_of: dt.date) -> None:
    """A renewal or substitution issued ``new`` in place of ``old``: every suspension of ``old`` still running
    or queued moves to ``new`` (the law suspends the operator's authorization, not a sheet of paper)."""
    rows = list(
        Effect.objects.filter(permit=old, state__in=RUNNING, mechanism__in=SUSPENDING, ends_on__gte=as_of)
        .select_related("case")
        .order_by("ends_on")
    )
    if not rows:
        return
    until = max(row.ends_on for row in rows if row.ends_on is not None)
    reason = f"Suspensão levada {instrument_of(old.regime_id).the(old.number, prep='de')}: " + "; ".join(
        row.note for row in rows
    )
    permit_suspend(permit=new, actor=actor, as_of=as_of, until=until, reason=reason[:500], extend=True)
    for row in rows:
        row.permit = new
        row.data = {**row.data, "carried_from": [*row.data.get("carried_from", []), old.number]}
        row.save(update_fields=["permit", "data"])
        _audit(row, actor, "effect.carry")
        _event(
            row.case,
            actor,
            as_of,
            f"{row.label} levada {instrument_of(new.regime_id).the(new.number, prep='a')}, "
            f"que substitui {instrument_of(old.regime_id).the(old.number)}, "
            f"até {row.ends_on:%d/%m/%Y}.",
        )


def permit_notes(permit: Permit, as_of: dt.date) -> list[str]:
    """What the permit page says next to its status: suspensions and seizures in force today."""
    rows = Effect.objects.in_force_on(as_of).filter(permit=permit) | Effect.objects.in_force_on(as_of).filter(
        vehicle=permit.vehicle, mechanism="seizure"
    )
    return [
        f"{row.label} (auto {row.case.number}): {row.note}" for row in rows.select_related("case").distinct()
    ]


def conditional_ban(
    *, sanction: Sanction, case: InfractionCase, actor: Actor, answer: dict[str, Any]
) -> dict[str, Any]:
    """The ban that follows a cassação for not regularizing (Olímpia art. 24 sole § + art. 26), with the dates
    and dispositivo the engine gave in its ``if_not_regularized`` answer."""
    sanction.ban_start = dt.date.fromisoformat(str(answer["ban_start"]))
    sanction.ban_until = dt.date.fromisoformat(str(answer["ban_until"]))
    return _ban(sanction, case, actor, str(answer.get("ban_cite") or "ban"))


def conditional_cassation(
    *, sanction: Sanction, case: InfractionCase, actor: Actor, as_of: dt.date, limit: dt.date
) -> list[dict[str, Any]]:
    """Not regularized by ``limit``: the cassação the regime's ``regularization.then`` names, on the permit in
    force that descends from the case's (a renewal does not escape it)."""
    penalties = catalog(case.regime_id)
    conditional = next((k for k in penalties.kinds.values() if k.regularization is not None), None)
    if conditional is None or conditional.regularization is None:
        raise RegimeDefinitionError(
            f"regime {case.regime_id}: a conditional cassação needs a penalty with regularization.then",
            message_pt="o regime não declara a cassação por falta de regularização",
        )
    kind = penalties.get(conditional.regularization.then)
    reason = f"Cassação: irregularidade do auto {case.number} não sanada até {limit:%d/%m/%Y}."
    rows = _cassation(kind, {}, case, sanction, actor, as_of, reason=reason)
    for row in rows:
        if row.state == EffectState.NOT_APPLIED:
            _event(case, actor, as_of, f"Efeito não aplicado — {row.label}: {row.note}")
    return [line for row in rows if (line := _summary(row))]


def current_permit(permit: Permit | None) -> Permit | None:
    """The permit in force that descends from ``permit`` through renewals and substitutions (itself if none)."""
    seen = set()
    while permit is not None and permit.pk not in seen:
        seen.add(permit.pk)
        successor = Permit.objects.filter(replaces=permit).order_by("-issued_on", "-pk").first()
        if successor is None:
            return permit
        permit = successor
    return permit


# --- one penalty ----------------------------------------------------------------------------------------------


def _apply_one(
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
) -> list[Effect]:
    appliers: dict[str, Applier] = {
        "suspension": _suspension,
        "precautionary_suspension": _suspension,
        "cassation": _cassation,
        "seizure": _seizure,
        "ban": _ban_effect,
        "points": _points,
    }
    rows = appliers.get(kind.mechanism, _record)(kind, item, case, sanction, actor, as_of)
    for row in rows:
        if row.state == EffectState.NOT_APPLIED:
            _event(case, actor, as_of, f"Efeito não aplicado — {row.label}: {row.note}")
    return rows


def _new(
    kind: PenaltyKind, case: InfractionCase, sanction: Sanction | None, state: str, note: str, **fields: Any
) -> Effect:
    row = Effect.objects.create(
        case=case,
        sanction=sanction,
        penalty_key=kind.key,
        label=kind.label,
        mechanism=kind.mechanism,
        target=kind.target,
        state=state,
        note=note,
        operator=case.operator,
        **fields,
    )
    _audit(row, None, "effect.record")
    return row


def _not_applied(
    kind: PenaltyKind, case: InfractionCase, sanction: Sanction | None, why: str, **fields: Any
) -> Effect:
    return _new(kind, case, sanction, EffectState.NOT_APPLIED, why, **fields)


def _record(
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
) -> list[Effect]:
    """Warnings, fines and the inspection hold: recorded (the fine is charged by its guide; the hold is the
    sweep's suspensions_held step)."""
    if kind.mechanism == "fine" and item.get("quantity") is None:
        why = "a decisão não fixa valor municipal" + (
            " — quem julgou não fixou a quantidade dentro da faixa legal."
            if kind.chosen_at_judgment
            else " (enquadramento e cobrança pela autoridade de trânsito)."
        )
        return [_not_applied(kind, case, sanction, why)]
    return [
        _new(
            kind,
            case,
            sanction,
            EffectState.APPLIED,
            f"{kind.label} registrada na decisão do auto {case.number}.",
        )
    ]


def _targets(kind: PenaltyKind, case: InfractionCase, as_of: dt.date) -> list[Permit]:
    """The permits the penalty acts on: the case's (or the one that replaced it), or all the operator's."""
    if kind.target == "operator" and case.operator is not None:
        return list(Permit.objects.filter(operator=case.operator, state__in=IN_FORCE).order_by("pk"))
    permit = current_permit(case.permit)
    return [permit] if permit is not None else []


def _period(item: dict[str, Any]) -> tuple[int | None, dt.date | None, dt.date | None]:
    days = int(item["days"]) if item.get("days") else None
    start = dt.date.fromisoformat(str(item["start"])) if item.get("start") else None
    end = dt.date.fromisoformat(str(item["end"])) if item.get("end") else None
    return days, start, end


def _suspension(
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
) -> list[Effect]:
    if kind.for_proceeding:
        return _proceeding_suspension(kind, case, sanction, actor, as_of)
    days, start, end = _period(item)
    if days is None and kind.days_parameter is not None:
        days, start, end = _parameter_period(kind.days_parameter, case, as_of)
    if days is None or start is None or end is None:
        why = (
            "sem número de dias: quem julgou não o fixou dentro da faixa legal."
            if kind.chosen_at_judgment
            else "a decisão não dá o número de dias nem o período da suspensão."
        )
        return [_not_applied(kind, case, sanction, f"Suspensão {why}", days=days)]
    if end < as_of:
        why = (
            f"o período da suspensão, de {start:%d/%m/%Y} a {end:%d/%m/%Y}, terminou antes de a decisão ser "
            "registrada."
        )
        return [_not_applied(kind, case, sanction, why, days=days, starts_on=start, ends_on=end)]
    permits = _targets(kind, case, as_of)
    if not permits:
        why = (
            f"o autorizatário não tem {instrument_of(case.regime_id).short} em vigor."
            if kind.target == "operator"
            else f"o auto não está ligado a {instrument_of(case.regime_id).short}."
        )
        return [
            _not_applied(kind, case, sanction, f"Suspensão: {why}", days=days, starts_on=start, ends_on=end)
        ]
    return [
        _suspend_permit(permit, kind, item, case, sanction, actor, as_of, (days, start, end))
        for permit in permits
    ]


def _proceeding_suspension(
    kind: PenaltyKind, case: InfractionCase, sanction: Sanction | None, actor: Actor, as_of: dt.date
) -> list[Effect]:
    """A precautionary suspension for the proceeding's duration: from today, with no last day; the daily sweep
    holds the permit suspended while the case is open (dueprocess.sweep), and finality or cancellation lifts it."""
    permits = _targets(kind, case, as_of)
    if not permits:
        instrument = instrument_of(case.regime_id)
        why = (
            f"o autorizatário não tem {instrument.short} em vigor."
            if kind.target == "operator"
            else f"o auto não está ligado {instrument.the(prep='a')}."
        )
        return [_not_applied(kind, case, sanction, f"Suspensão: {why}", starts_on=as_of)]
    cites = ", ".join(kind.cites)
    note = (
        f"Penalidade do auto {case.number}: {kind.label.lower()} enquanto durar o processo ({cites}), "
        f"desde {as_of:%d/%m/%Y}."
    )
    rows = []
    for permit in permits:
        row = Permit.objects.get(pk=permit.pk)
        if row.state not in IN_FORCE:
            why = f"Suspensão: {instrument_of(row.regime_id).the(row.number)} está {row.get_state_display().lower()}."
            rows.append(_not_applied(kind, case, sanction, why, permit=row, starts_on=as_of))
            continue
        permit_suspend(permit=row, actor=actor, as_of=as_of, until=as_of, reason=note, extend=True)
        rows.append(_new(kind, case, sanction, EffectState.APPLIED, note, permit=row, starts_on=as_of))
    return rows


def _parameter_period(parameter: str, case: InfractionCase, as_of: dt.date) -> tuple[int, dt.date, dt.date]:
    """A precautionary suspension of the days a parameter fixes (on the infraction date), from the day the auto
    is registered, both ends included."""
    on = lawbridge.infraction_date(case)
    days = int(get_regime(case.regime_id).parameters[parameter].value_on(on, case.regime_id).value)
    return days, as_of, as_of + dt.timedelta(days=days - 1)


def _suspend_permit(
    permit: Permit,
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
    period: tuple[int, dt.date, dt.date],
) -> Effect:
    days, start, end = period
    permit = Permit.objects.get(pk=permit.pk)
    fields = {"permit": permit, "days": days, "starts_on": start, "ends_on": end}
    if permit.state not in IN_FORCE:
        named = instrument_of(permit.regime_id).the(permit.number)
        why = f"Suspensão: {named} está {permit.get_state_display().lower()}."
        return _not_applied(kind, case, sanction, why, **fields)
    state, queued = EffectState.APPLIED, ""
    running_until = _running_until(permit)
    if running_until is not None and running_until >= start:
        # Consecutive suspensions add up: this one runs its own days once the running one ends.
        start, end = (
            running_until + dt.timedelta(days=1),
            running_until + dt.timedelta(days=1) + (end - start),
        )
        state, queued = (
            EffectState.QUEUED,
            f" (em sequência à suspensão anterior, até {running_until:%d/%m/%Y})",
        )
        fields.update(starts_on=start, ends_on=end)
    inspection = (
        " Reativação condicionada à vistoria."
        if sanction is not None and sanction.inspection_required
        else ""
    )
    note = (
        f"Penalidade do auto {case.number}: {kind.label.lower()} de {days} dias, de {start:%d/%m/%Y} a "
        f"{end:%d/%m/%Y}{queued}.{inspection}"
    )
    permit_suspend(permit=permit, actor=actor, as_of=as_of, until=end, reason=note, extend=True)
    return _new(kind, case, sanction, state, note, **fields)


def _running_until(permit: Permit) -> dt.date | None:
    """The last day of the suspensions already imposed on the permit and on those it replaced (by any case,
    served or still to serve, not lifted), or of its suspension in force: a new period that overlaps them
    runs after them — whether or not the sweep has reactivated the permit since the last one ended."""
    imposed = Effect.objects.filter(
        permit__in=_lineage(permit), state__in=RUNNING, mechanism__in=SUSPENDING
    ).aggregate(last=Max("ends_on"))["last"]
    current = permit.suspended_until if permit.state == PermitState.SUSPENDED else None
    dates = [d for d in (current, imposed) if d is not None]
    return max(dates) if dates else None


def _lineage(permit: Permit) -> list[int]:
    """The permit and those it replaced (renewals, substitutions), newest first."""
    found: list[int] = []
    row: Permit | None = permit
    while row is not None and row.pk not in found:
        found.append(row.pk)
        row = row.replaces
    return found


def _end_suspension(row: Effect, actor: Actor, as_of: dt.date, reason: str) -> None:
    """Lift one case's suspension; the permit stays suspended while another case's suspension runs."""
    if row.permit_id is None:
        return
    permit = Permit.objects.get(pk=row.permit_id)
    if permit.state != PermitState.SUSPENDED:
        return
    others = Effect.objects.filter(
        permit=permit, state__in=RUNNING, mechanism__in=SUSPENDING, ends_on__gte=as_of
    )
    remaining = others.exclude(pk=row.pk).aggregate(last=Max("ends_on"))["last"]
    permit_reactivate(permit=permit, actor=actor, as_of=as_of, reason=f"Suspensão levantada: {reason}")
    if remaining is not None:
        note = f"Suspensão mantida até {remaining:%d/%m/%Y} por outro auto."
        permit_suspend(permit=permit, actor=actor, as_of=as_of, until=remaining, reason=note)


def _cassation(
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
    reason: str = "",
) -> list[Effect]:
    permits = _targets(kind, case, as_of)
    if not permits:
        return [
            _not_applied(
                kind,
                case,
                sanction,
                f"Cassação: o auto não está ligado a {instrument_of(case.regime_id).short} em vigor.",
            )
        ]
    reason = reason or f"Cassação pela decisão definitiva do auto {case.number}."
    rows = []
    for permit in permits:
        permit = Permit.objects.get(pk=permit.pk)
        if permit.state not in IN_FORCE:
            named = instrument_of(permit.regime_id).the(permit.number)
            why = f"Cassação: {named} já está {permit.get_state_display().lower()}."
            rows.append(_not_applied(kind, case, sanction, why, permit=permit))
            continue
        permit_revoke(permit=permit, actor=actor, as_of=as_of, reason=reason)
        rows.append(_new(kind, case, sanction, EffectState.APPLIED, reason, permit=permit, starts_on=as_of))
    return rows


def _seizure(
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
) -> list[Effect]:
    """Apreensão: the vehicle is held until the release conditions are met (released by seizure_release)."""
    assert kind.release is not None  # the loader requires it
    if case.vehicle is None:
        return [_not_applied(kind, case, sanction, "Apreensão: o veículo do auto não está no cadastro.")]
    deadline = _release_deadline(kind, case, as_of)
    conditions = "; ".join(kind.release.conditions)
    until = f" Prazo para a liberação: {deadline:%d/%m/%Y}." if deadline else ""
    note = f"Veículo {case.plate} apreendido em {as_of:%d/%m/%Y}. Liberação: {conditions}.{until}"
    data = {
        "conditions": list(kind.release.conditions),
        "release_deadline": deadline.isoformat() if deadline else None,
        "cite": kind.release.cite,
    }
    permit = current_permit(case.permit)
    return [
        _new(
            kind,
            case,
            sanction,
            EffectState.APPLIED,
            note,
            vehicle=case.vehicle,
            permit=permit,
            starts_on=as_of,
            data=data,
        )
    ]


def _release_deadline(kind: PenaltyKind, case: InfractionCase, as_of: dt.date) -> dt.date | None:
    """The last day to release the seized vehicle, where the regime sets one."""
    assert kind.release is not None
    if kind.release.deadline_days is None:
        return None
    days = int(
        get_regime(case.regime_id)
        .parameters[kind.release.deadline_days]
        .value_on(as_of, case.regime_id)
        .value
    )
    return as_of + dt.timedelta(days=days)


def _points(
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
) -> list[Effect]:
    """Points on the operator's record, counted in a rolling window; reaching the threshold is recorded."""
    assert kind.points is not None
    parameters = get_regime(case.regime_id).parameters
    value = item.get("points")
    if value is None and kind.points.points is not None:
        value = parameters[kind.points.points].value_on(as_of, case.regime_id).value
    if value is None or case.operator is None:
        why = "a decisão não dá o número de pontos." if value is None else "o autuado não está no cadastro."
        return [_not_applied(kind, case, sanction, f"Pontos: {why}")]
    months = int(parameters[kind.points.window_months].value_on(as_of, case.regime_id).value)
    until = _add_months(as_of, months) - dt.timedelta(days=1)
    note = f"{value} pontos, contados até {until:%d/%m/%Y} (janela de {months} meses)."
    row = _new(
        kind, case, sanction, EffectState.APPLIED, note, points=int(value), starts_on=as_of, ends_on=until
    )
    _check_threshold(kind, case, actor, as_of, parameters)
    return [row]


def _check_threshold(
    kind: PenaltyKind, case: InfractionCase, actor: Actor, as_of: dt.date, parameters: Any
) -> None:
    assert kind.points is not None
    if kind.points.threshold is None:
        return
    limit = int(parameters[kind.points.threshold].value_on(as_of, case.regime_id).value)
    rows = Effect.objects.in_force_on(as_of).filter(operator=case.operator, penalty_key=kind.key)
    total = sum(row.points or 0 for row in rows)
    if total >= limit:
        _event(
            case, actor, as_of, f"{kind.label}: {total} pontos na janela, limite legal de {limit} atingido."
        )


def _add_months(day: dt.date, months: int) -> dt.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for last in (31, 30, 29, 28):
        try:
            return dt.date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise ValueError(day)


def _ban_effect(
    kind: PenaltyKind,
    item: dict[str, Any],
    case: InfractionCase,
    sanction: Sanction | None,
    actor: Actor,
    as_of: dt.date,
) -> list[Effect]:
    if sanction is None:
        return [_not_applied(kind, case, sanction, "Impedimento: só se registra com a decisão definitiva.")]
    summary = _ban(sanction, case, actor, _ban_reason(sanction))
    state = EffectState.NOT_APPLIED if summary["kind"] == EffectKind.SKIPPED else EffectState.APPLIED
    return [
        _new(
            kind,
            case,
            sanction,
            state,
            summary["note"],
            starts_on=sanction.ban_start,
            ends_on=sanction.ban_until,
        )
    ]


def _subject(case: InfractionCase) -> tuple[Person | None, Company | None]:
    """Who is banned: the operator's holder, or the clandestine offender found in the registry by document."""
    if case.operator is not None:
        return case.operator.person, case.operator.company
    document = "".join(ch for ch in case.offender_document if ch.isalnum()).upper()
    if len(document) == 11:
        return Person.objects.filter(
            municipality=case.municipality, cpf=normalize_cpf(document)
        ).first(), None
    if len(document) == 14:
        return None, Company.objects.filter(
            municipality=case.municipality, cnpj=normalize_cnpj(document)
        ).first()
    return None, None


def _ban_reason(sanction: Sanction) -> str:
    """The dispositivo the ban rests on, as the engine cited it (Olímpia: art. 26 cassação, art. 27 clandestine)."""
    for finding in sanction.decision.get("findings", []):
        if finding.get("code") == "penalty_ban":
            refs = [c.get("dispositivo") for c in finding.get("citations", []) if c.get("dispositivo")]
            if refs:
                return str(refs[0])
    return "ban"


def _ban(sanction: Sanction, case: InfractionCase, actor: Actor, reason_code: str) -> dict[str, Any]:
    person, company = _subject(case)
    start, until = sanction.ban_start, sanction.ban_until
    if (person is None and company is None) or start is None or until is None:
        return effect(
            EffectKind.SKIPPED,
            "Impedimento: o autuado não está no cadastro (registre-o e o impedimento pelo cadastro).",
        )
    sanction.ban = ban_record(
        actor=actor,
        municipality=case.municipality,
        reason_code=reason_code,
        start=start,
        until=until,
        source=f"Auto de infração {case.number}",
        decision=sanction.decision,
        person=person,
        company=company,
    )
    return effect(
        EffectKind.BAN, f"Impedido de {start:%d/%m/%Y} a {until:%d/%m/%Y}.", until=until.isoformat()
    )


# --- bookkeeping ----------------------------------------------------------------------------------------------

SUMMARY_KIND = {
    "suspension": EffectKind.SUSPENSION,
    "precautionary_suspension": EffectKind.SUSPENSION,
    "cassation": EffectKind.REVOCATION,
    "ban": EffectKind.BAN,
}


def _summary(row: Effect) -> dict[str, Any] | None:
    """The line kept in ``Sanction.effects`` for what changed a permit or the registry, or could not apply."""
    kind = EffectKind.SKIPPED if row.state == EffectState.NOT_APPLIED else SUMMARY_KIND.get(row.mechanism)
    if kind is None:
        return None
    data: dict[str, Any] = {"penalty": row.penalty_key, "effect_id": row.pk}
    if row.permit is not None:
        data["permit"] = row.permit.number
    if row.ends_on is not None:
        data["until"] = row.ends_on.isoformat()
    return effect(kind, row.note, penalty_label=row.label, **data)


def _event(case: InfractionCase, actor: Actor, on: dt.date, note: str) -> None:
    case_event_add(case=case, kind=EventKind.NOTE, actor=actor, on=on, note=note, data={"effects": True})


def _audit(row: Effect, actor: Actor, action: str) -> None:
    audit_record(
        actor=actor, municipality=row.case.municipality, action=action, obj=row, after=row.audit_snapshot()
    )
