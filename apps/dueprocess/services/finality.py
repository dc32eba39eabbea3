"""Finality: the case's penalty computed by the engine from the operator's history and its effects applied in
the same transaction (permit suspended for exactly the period, revoked on cassação, the 2-year ban recorded),
and the annulment when an appeal is granted (open fine guide cancelled, paid fine refunded — Olímpia art. 35).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import transaction

from apps.accounts.actors import Actor
from apps.accounts.stepup import sensitive_service
from apps.audit.services import audit_record, audited_change
from apps.dueprocess import lawbridge
from apps.dueprocess.choices import FinalityReason, Instance, SanctionState
from apps.dueprocess.models import Sanction
from apps.dueprocess.procedure import proceeding
from apps.dueprocess.services import effects
from apps.dueprocess.services.fines import fine_charge
from apps.enforcement.choices import CaseState, EventKind
from apps.enforcement.lawbridge import penalty_text
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import case_event_add, case_move, locked_case
from apps.finance.choices import GuideStatus, OriginType
from apps.finance.formatting import brl
from apps.finance.services import fine_valuation_make, guide_cancel, guide_wait_withdraw, refund_create
from apps.tenancy.querysets import user_can
from apps.web.refusals import refuse
from lawcode import Decision
from lawcode.penalties import PenaltyKind
from lawcode.registry import get_regime

__all__ = [
    "FinalityReason",
    "case_finalize",
    "case_finalize_unappealed",
    "sanction_annul",
    "sanction_condemn_first",
]


def _date(value: Any) -> dt.date | None:
    return value if isinstance(value, dt.date) else None


def _first(declared: list[tuple[dict[str, Any], PenaltyKind]], *mechanisms: str) -> dict[str, Any] | None:
    """The first penalty of the decision whose declared mechanism is one of ``mechanisms``."""
    return next((item for item, kind in declared if kind.mechanism in mechanisms), None)


def _fill(sanction: Sanction, decision: Decision, regime_id: str) -> None:
    """Copy the engine's result into the row (the whole Decision is kept too, replayable); each summary column
    is read by the mechanism the regime declares for its penalties, never by a penalty's name."""
    result, stored = decision.result, decision.to_dict()
    penalties = list(result.get("penalties") or [])
    sanction.outcome, sanction.decision = decision.outcome, stored
    sanction.penalties = stored["result"].get("penalties") or []
    sanction.penalty_text = penalty_text(regime_id, penalties)[:500]
    sanction.recidivism = bool(result.get("recidivism"))
    declared = effects.declared_items(regime_id, penalties)
    _fill_fine(sanction, _first(declared, "fine"))
    _fill_suspension(sanction, _first(declared, "suspension", "precautionary_suspension"))
    sanction.inspection_required = _first(declared, "inspection_hold") is not None
    sanction.cassation = _first(declared, "cassation") is not None
    sanction.cassation_if_not_regularized_by = _date(result.get("cassation_if_not_regularized_by"))
    ban = _first(declared, "ban")
    sanction.ban_start = _date(ban.get("start")) if ban else None
    sanction.ban_until = _date(ban.get("end")) if ban else None


def _fill_fine(sanction: Sanction, fine: dict[str, Any] | None) -> None:
    quantity = fine.get("quantity") if fine else None
    sanction.fine_quantity = Decimal(str(quantity)) if quantity is not None else None
    sanction.fine_unit = str(fine.get("unit") or "") if quantity is not None and fine else ""
    brl = fine.get("brl") if fine else None
    sanction.fine_brl = Decimal(str(brl)) if brl is not None else None


def _value_fine(sanction: Sanction, case: InfractionCase, actor: Actor, as_of: dt.date) -> None:
    """The fine's one valuation, made now that the decision fixes it (finance stores it with its unit value, its
    date and its reason; every guide of the fine charges it). When the value it needs is not entered yet, the
    decision still stands: the amount stays open (None) and the fine is valued when its guide is issued."""
    if not sanction.has_fine or not sanction.fine_unit:
        return
    valuation = fine_valuation_make(
        actor=actor,
        municipality=case.municipality,
        regime_id=case.regime_id,
        origin_id=sanction.pk,
        charge=fine_charge(sanction),
        fact_date=lawbridge.infraction_date(case),
        as_of=as_of,
    )
    sanction.fine_brl = valuation.amount_brl if valuation is not None else None
    sanction.save(update_fields=["fine_brl", "updated_at"])


def _fill_suspension(sanction: Sanction, suspension: dict[str, Any] | None) -> None:
    """Days and dates as the engine gives them (each regime says when its suspension starts and ends)."""
    days = int(suspension["days"]) if suspension and suspension.get("days") else None
    start = _date(suspension.get("start")) if suspension else None
    end = _date(suspension.get("end")) if suspension else None
    sanction.suspension_days, sanction.suspension_start, sanction.suspension_end = days, start, end


@transaction.atomic
def sanction_condemn_first(
    *, case: InfractionCase, condemned_on: dt.date, actor: Actor, as_of: dt.date
) -> None:
    """Where the law makes the fine due after the first condemnation (Olímpia art. 33), record the penalty now
    (fine chargeable); where the appeal to the next instance has no suspensive effect (procedure.yaml
    ``suspensive: false``), apply the penalty's effects now. Elsewhere nothing happens until finality."""
    fine_due = proceeding(case.regime_id).fine_due_on_first_condemnation is not None
    after = get_regime(case.regime_id).procedure.due_process.effects_after
    effects_now = after is not None and after.key == Instance.FIRST
    if not fine_due and not effects_now:
        return
    if effects_now:
        # The next appeal does not suspend them: the decision produces its effects from the condemnation, so
        # the law's dates (a suspension from the decision) count from that day.
        enforceable = lawbridge.sanction(case, condemned_on, as_of)
        penalty = enforceable.outcome == "penalty"
        items = enforceable.to_dict()["result"].get("penalties") or [] if penalty else []
        effects.apply_after_instance(case=case, sanction=None, actor=actor, as_of=as_of, items=items)
    if not fine_due:
        return
    decision = lawbridge.sanction(case, None, as_of)
    sanction = Sanction(
        case=case, operator=case.operator, state=SanctionState.AWAITING_APPEAL, condemned_on=condemned_on
    )
    _fill(sanction, decision, case.regime_id)
    sanction.save()
    _value_fine(sanction, case, actor, as_of)
    case_event_add(
        case=case,
        kind=EventKind.SANCTION_APPLIED,
        actor=actor,
        on=condemned_on,
        note=f"Penalidade (cabe recurso): {sanction.penalty_text}",
        data={"sanction_id": sanction.pk},
    )
    audit_record(
        actor=actor,
        municipality=case.municipality,
        action="sanction.condemn",
        obj=sanction,
        after=sanction.audit_snapshot(),
    )


@transaction.atomic
def case_finalize(
    *, case: InfractionCase, final_on: dt.date, reason: str, actor: Actor, as_of: dt.date
) -> Sanction:
    """The decision is final on ``final_on``: compute the penalty from the history of final decisions, store
    it with its Decision and apply its effects, all in this transaction."""
    row = locked_case(case)
    decision = lawbridge.sanction(row, final_on, as_of)
    sanction = Sanction.objects.select_for_update().filter(case=row).first()
    before = sanction.audit_snapshot() if sanction else None
    sanction = sanction or Sanction(case=row, operator=row.operator, condemned_on=final_on)
    sanction.state, sanction.decided_final_on, sanction.finality_reason = (
        SanctionState.FINAL,
        final_on,
        reason,
    )
    _fill(sanction, decision, row.regime_id)
    sanction.regularized_on = lawbridge.regularized_by(row)
    sanction.save()
    _value_fine(sanction, row, actor, as_of)
    sanction.effects = effects.apply(sanction=sanction, case=row, actor=actor, as_of=as_of)
    sanction.save(update_fields=["effects", "ban", "updated_at"])
    note = sanction.penalty_text if decision.outcome == "penalty" else "Sem penalidade municipal"
    case_event_add(
        case=row,
        kind=EventKind.SANCTION_APPLIED,
        actor=actor,
        on=final_on,
        note=f"Decisão definitiva: {note}",
        data={"sanction_id": sanction.pk},
    )
    audit_record(
        actor=actor,
        municipality=row.municipality,
        action="sanction.final",
        obj=sanction,
        before=before,
        after={**sanction.audit_snapshot(), "effects": sanction.effects},
    )
    return sanction


# --- no appeal in time ------------------------------------------------------------------------------------

LAPSING = {CaseState.NOTIFIED: Instance.FIRST, CaseState.JUDGED_FIRST: Instance.SECOND}


def lapse_deadline(case: InfractionCase, as_of: dt.date) -> dt.date | None:
    """The last day to appeal in the case's current state (None: no ciência yet, or no deadline in the law)."""
    from apps.dueprocess.services import counts_from

    instance = LAPSING.get(CaseState(case.state))
    start = counts_from(case, instance) if instance else None
    answer = lawbridge.appeal_deadline(case, instance, start, as_of) if instance and start else None
    return answer.end if answer else None


@sensitive_service
@transaction.atomic
def case_finalize_unappealed(*, case: InfractionCase, actor: Actor, as_of: dt.date) -> Sanction:
    """No appeal was filed in time: the decision is final the day after the deadline ran out."""
    row = locked_case(case)
    if actor is not None and not user_can(actor, row.municipality.pk, "dueprocess.sanction", "change"):
        raise refuse("state", f"Decisão definitiva: você não pode declará-la em {row.municipality}.")
    if row.state not in LAPSING:
        raise refuse(
            "state",
            f"O auto {row.number} está «{row.get_state_display()}»: não cabe declarar a "
            "decisão definitiva por falta de recurso.",
        )
    deadline = lapse_deadline(row, as_of)
    if deadline is None:
        raise refuse(
            "state",
            "Decisão definitiva: sem a ciência do autuado (ou sem prazo de recurso na lei), o "
            "prazo de recurso não começou a correr.",
        )
    if as_of <= deadline:
        raise refuse("state", f"Decisão definitiva: o prazo de recurso corre até {deadline:%d/%m/%Y}.")
    final_on = deadline + dt.timedelta(days=1)
    row = case_move(
        case=row,
        to=CaseState.FINAL,
        allowed=tuple(LAPSING),
        actor=actor,
        on=final_on,
        note=f"Sem recurso até {deadline:%d/%m/%Y}: decisão definitiva",
    )
    return case_finalize(
        case=row, final_on=final_on, reason=FinalityReason.NO_APPEAL, actor=actor, as_of=as_of
    )


# --- annulment ----------------------------------------------------------------------------------------------


@transaction.atomic
def sanction_annul(
    *, case: InfractionCase, actor: Actor, as_of: dt.date, reason: str, ground: str = "Recurso procedente"
) -> Sanction | None:
    """An appeal was granted (or the case was voided: ``ground`` says which): the infraction is cancelled; an
    open guide is cancelled, a paid fine refunded (Olímpia art. 35: by bank transfer)."""
    sanction: Sanction | None = Sanction.objects.select_for_update().filter(case=case).first()
    if sanction is None:
        # Nothing final yet, but a suspension applied when the auto was registered ends with the case.
        effects.lift_case_effects(case=case, actor=actor, as_of=as_of, reason=reason)
        return None
    with audited_change(sanction, actor=actor, action="sanction.annul", municipality=case.municipality):
        sanction.state = SanctionState.ANNULLED
        sanction.save(update_fields=["state", "updated_at"])
        _undo_fine(sanction, case, actor, as_of, reason, ground)
        effects.lift_case_effects(case=case, actor=actor, as_of=as_of, reason=reason)
    return sanction


def _undo_fine(
    sanction: Sanction, case: InfractionCase, actor: Actor, as_of: dt.date, reason: str, ground: str
) -> None:
    guide = sanction.guide
    if guide is None:
        guide_wait_withdraw(
            actor=actor,
            origin_type=OriginType.FINE,
            origin_id=sanction.pk,
            reason=f"{ground} — {reason}",
            as_of=as_of,
        )
        return
    if guide.status == GuideStatus.OPEN:
        guide_cancel(actor=actor, guide=guide, reason=f"{ground} — {reason}", as_of=as_of)
        return
    payment = getattr(guide, "payment", None)
    if guide.status != GuideStatus.PAID or payment is None:
        return
    refund = refund_create(
        actor=actor,
        payment=payment,
        amount_brl=payment.amount_brl,
        due_on=as_of,
        reason=f"{ground}: multa do auto {case.number} devolvida",
        as_of=as_of,
    )
    case_event_add(
        case=case,
        kind=EventKind.REFUND_DUE,
        actor=actor,
        on=as_of,
        note=f"Restituição de {brl(refund.amount_brl)} por transferência bancária (guia {guide.number})",
        data={"refund_id": refund.pk},
    )
