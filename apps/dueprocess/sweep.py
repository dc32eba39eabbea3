"""Due process's steps for the daily sweep (apps.licensing's daily_sweep calls them; see the report/README).

Every row a step changes is audited in the step's transaction: the set-based step through licensing's
update_audited, the per-case steps through the services they call.

- hold_suspensions_awaiting_inspection: set-based. A suspension whose penalty requires an inspection at its end
  (Olímpia art. 25 §1) stays in force, one day at a time, until the vehicle passes an inspection after the
  suspension began. MUST run before licensing's lift_suspensions, which reactivates every ended suspension.
  Likewise a precautionary suspension for the proceeding's duration (penalties.yaml ``days: proceeding``) is
  held while its case is open; finality or cancellation lifts it (services.effects).
- revoke_unregularized: Olímpia art. 24 sole §: an immediate suspension becomes cassação when the irregularity
  was not regularized by its end. One service call per permit (the revocation changes the QR token and is
  audited); the WHERE selects only what is due, so a second run finds nothing.
- finalize_lapsed: cases whose appeal deadline ran out become final (the engine decides each deadline, so this
  is per case; each in its own transaction so one refusal never undoes the others).
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet

from apps.audit.services import audit_record
from apps.dueprocess import lawbridge
from apps.dueprocess.choices import EffectState, SanctionState
from apps.dueprocess.models import Effect, Sanction
from apps.dueprocess.services import effects
from apps.dueprocess.services.finality import LAPSING, case_finalize_unappealed, lapse_deadline
from apps.enforcement.choices import OPEN_STATES
from apps.enforcement.models import InfractionCase
from apps.inspections.choices import InspectionResult
from apps.inspections.models import Inspection
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.licensing.sweep import PERMIT_AUDITED, update_audited


def suspensions_awaiting_inspection(as_of: dt.date) -> QuerySet[Permit]:
    """Suspended permits ending before ``as_of`` whose final penalty requires an inspection not yet passed (the
    permit the suspension was applied or carried to)."""
    passed = Inspection.objects.filter(
        vehicle=OuterRef("vehicle"), result=InspectionResult.PASSED, performed_on__gte=OuterRef("start")
    )
    sanctions = Sanction.objects.filter(
        state=SanctionState.FINAL,
        inspection_required=True,
        effect_rows__permit=OuterRef("pk"),
        effect_rows__mechanism__in=effects.SUSPENDING,
    ).values("suspension_start")[:1]
    due = Permit.objects.filter(state=PermitState.SUSPENDED, suspended_until__lt=as_of)
    return due.annotate(start=sanctions).filter(start__isnull=False).filter(~Exists(passed))


def suspensions_for_proceeding(as_of: dt.date) -> QuerySet[Permit]:
    """Suspended permits ending before ``as_of`` under a precautionary suspension that lasts while its
    proceeding runs (penalties.yaml ``days: proceeding``: an applied effect with no last day) whose case is
    still open."""
    running = Effect.objects.filter(
        permit=OuterRef("pk"),
        state=EffectState.APPLIED,
        mechanism="precautionary_suspension",
        ends_on__isnull=True,
        case__state__in=OPEN_STATES,
    )
    due = Permit.objects.filter(state=PermitState.SUSPENDED, suspended_until__lt=as_of)
    return due.filter(Exists(running))


def hold_suspensions_awaiting_inspection(as_of: dt.date) -> int:
    """Also holds, one day at a time, the suspensions that last while the proceeding runs."""
    ids = list(suspensions_awaiting_inspection(as_of).values_list("pk", flat=True))
    ids += list(suspensions_for_proceeding(as_of).exclude(pk__in=ids).values_list("pk", flat=True))
    return update_audited(
        Permit.objects.filter(pk__in=ids),
        action="permit.suspension_held",
        audited=PERMIT_AUDITED,
        changes={"suspended_until": as_of},
    )


def unregularized(as_of: dt.date) -> QuerySet[Sanction]:
    return Sanction.objects.filter(
        state=SanctionState.FINAL,
        cassation_if_not_regularized_by__lt=as_of,
        regularized_on__isnull=True,
        conditional_cassation_on__isnull=True,
    ).select_related("case__permit", "case__municipality")


def revoke_unregularized(as_of: dt.date) -> int:
    revoked = 0
    for sanction in unregularized(as_of):
        with transaction.atomic():
            _revoke_one(sanction, as_of)
            revoked += 1
    return revoked


def _revoke_one(sanction: Sanction, as_of: dt.date) -> None:
    case, limit = sanction.case, sanction.cassation_if_not_regularized_by
    assert limit is not None  # selected by unregularized()
    answer = lawbridge.if_not_regularized(sanction)
    before = sanction.audit_snapshot()
    done = effects.conditional_cassation(sanction=sanction, case=case, actor=None, as_of=as_of, limit=limit)
    if answer:
        done.append(effects.conditional_ban(sanction=sanction, case=case, actor=None, answer=answer))
    sanction.conditional_cassation_on, sanction.cassation = as_of, True
    sanction.effects = [*sanction.effects, *done]
    sanction.save(
        update_fields=[
            "conditional_cassation_on",
            "cassation",
            "ban",
            "ban_start",
            "ban_until",
            "effects",
            "updated_at",
        ]
    )
    audit_record(
        actor=None,
        municipality=case.municipality,
        action="sanction.conditional_cassation",
        obj=sanction,
        before=before,
        after=sanction.audit_snapshot(),
    )


def finalize_lapsed(as_of: dt.date) -> int:
    done = 0
    for case in InfractionCase.objects.filter(state__in=list(LAPSING)).select_related("municipality"):
        deadline = lapse_deadline(case, as_of)
        if deadline is None or deadline >= as_of:
            continue
        try:
            case_finalize_unappealed(case=case, actor=None, as_of=as_of)
        except ValidationError:
            continue  # the engine could not decide this one (e.g. a missing UFM): it stays for a person
        done += 1
    return done
