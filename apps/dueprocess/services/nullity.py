"""Nullity by a lost time limit, applied: a case whose law voids it when a limit passes (procedure.yaml ``nullity``)
is cancelled by the daily sweep, with the article and the reason on the case, its sanction annulled (open guide
cancelled, paid fine refunded, effects lifted) and all of it audited in one transaction per case.

The limits (lawcode.procedure.NULLITY_LIMITS) and how the apps see each one kept or lost:
- ``penalty_notice``: the penalty notice (Notice «final_decision») sent on or before the case's
  ``notice_limit`` — the last day the engine's ``notice_limit`` question gave (Patrocínio art. 19 § 1º).
- ``autuacao_notice``: the notice of the autuação (Notice «infraction», the NAI) sent on or before the last day
  the rule's declared ``days`` give, counted from the infraction in the municipality's calendar — a distinct act
  from the penalty notice, with its own limit and its own nullity.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet

import lawcode
from apps.accounts.actors import Actor
from apps.audit.services import audit_record
from apps.dueprocess.lawbridge import infraction_date
from apps.dueprocess.models import CaseNullity
from apps.dueprocess.services import finality
from apps.enforcement.choices import OPEN_STATES, CaseState, EventKind, NoticePurpose
from apps.enforcement.models import InfractionCase, Notice
from apps.enforcement.regime_rules import cite_pt
from apps.enforcement.services import case_move
from apps.lawconfig.config import calendar_for
from lawcode.procedure import NULLITY_LIMITS, NullityRule

# States a case can still be voided in: running, or final while its penalty notice is still owed.
VOIDABLE = (*OPEN_STATES, CaseState.FINAL)
NULLITY_GROUND = "Nulidade por prazo perdido"


def _penalty_notice_lost(as_of: dt.date) -> QuerySet[InfractionCase]:
    """Cases whose penalty-notice limit ended before ``as_of`` without a penalty notice sent by it."""
    in_time = Notice.objects.filter(
        case=OuterRef("pk"), purpose=NoticePurpose.FINAL_DECISION, sent_on__lte=OuterRef("notice_limit")
    )
    return InfractionCase.objects.filter(state__in=VOIDABLE, notice_limit__lt=as_of).filter(~Exists(in_time))


def _penalty_notice_lapsed(as_of: dt.date) -> list[tuple[InfractionCase, NullityRule, dt.date]]:
    found = []
    rows = (
        _penalty_notice_lost(as_of).filter(nullity__isnull=True).select_related("municipality").order_by("pk")
    )
    for case in rows:
        rule = nullity_rule(case.regime_id, "penalty_notice")
        if rule is not None and case.notice_limit is not None:
            found.append((case, rule, case.notice_limit))
    return found


def autuacao_limit(case: InfractionCase) -> tuple[NullityRule, dt.date] | None:
    """The regime's rule voiding a late notice of autuação and its last day for ``case`` (None: no such rule)."""
    rule = nullity_rule(case.regime_id, "autuacao_notice")
    if rule is None:
        return None
    calendar = calendar_for(case.municipality, case.regime_id)
    return rule, rule.last_day(infraction_date(case), calendar).end


def _autuacao_notice_lapsed(as_of: dt.date) -> list[tuple[InfractionCase, NullityRule, dt.date]]:
    """Cases of a regime voiding a late NAI whose limit (days from the infraction) ended before ``as_of``
    without a notice of the autuação sent by it."""
    regimes = {
        regime.id: rule
        for regime in lawcode.all_regimes()
        if (rule := regime.procedure.nullity.rule("autuacao_notice")) is not None
    }
    if not regimes:
        return []
    found = []
    rows = (
        InfractionCase.objects.filter(state__in=VOIDABLE, regime_id__in=regimes, nullity__isnull=True)
        .select_related("municipality")
        .order_by("pk")
    )
    for case in rows:
        rule = regimes[case.regime_id]
        calendar = calendar_for(case.municipality, case.regime_id)
        last_day = rule.last_day(infraction_date(case), calendar).end
        if last_day >= as_of:
            continue
        in_time = Notice.objects.filter(
            case=case, purpose=NoticePurpose.INFRACTION, sent_on__lte=last_day
        ).exists()
        if not in_time:
            found.append((case, rule, last_day))
    return found


LOST: dict[str, Callable[[dt.date], list[tuple[InfractionCase, NullityRule, dt.date]]]] = {
    # limit key → the cases that lost it by a day, each with its regime's rule and the limit's last day
    "penalty_notice": _penalty_notice_lapsed,
    "autuacao_notice": _autuacao_notice_lapsed,
}
assert set(LOST) == set(NULLITY_LIMITS), "every nullity limit lawcode declares needs its query here"


def nullity_rule(regime_id: str, limit: str) -> NullityRule | None:
    return lawcode.get_regime(regime_id).procedure.nullity.rule(limit)


def cases_to_void(as_of: dt.date) -> list[tuple[InfractionCase, NullityRule, dt.date]]:
    """Every case that lost a limit its regime attaches nullity to, not voided yet, with the rule and the
    limit's last day (a case that lost two limits is voided once, for the first found)."""
    found: dict[int, tuple[InfractionCase, NullityRule, dt.date]] = {}
    for lost in LOST.values():
        for case, rule, last_day in lost(as_of):
            found.setdefault(case.pk, (case, rule, last_day))
    return [found[pk] for pk in sorted(found)]


@transaction.atomic
def case_void(
    *, case: InfractionCase, rule: NullityRule, actor: Actor, as_of: dt.date, limit_day: dt.date | None = None
) -> CaseNullity:
    """Cancel the case for the lost limit: the nullity row (reason and article, shown on the case), the state
    change with a timeline line citing the article, the sanction annulled, and the audit event. ``limit_day``
    is the limit's last day (defaults to the case's ``notice_limit`` for the penalty notice)."""
    if limit_day is None:
        limit_day = case.notice_limit if rule.limit == "penalty_notice" else None
    if limit_day is None:
        limit_day = rule.last_day(infraction_date(case), calendar_for(case.municipality, case.regime_id)).end
    basis = cite_pt(case.regime_id, rule.cite, as_of)
    nullity = CaseNullity.objects.create(
        case=case,
        limit=rule.limit,
        limit_day=limit_day,
        cite=rule.cite,
        basis=basis,
        reason=rule.reason,
        applied_on=as_of,
    )
    note = f"{NULLITY_GROUND} ({basis}): {rule.reason}"
    case_move(
        case=case,
        to=CaseState.CANCELLED,
        allowed=VOIDABLE,
        actor=actor,
        on=as_of,
        event=EventKind.STATE_CHANGED,
        note=note,
        data={"nullity": rule.limit, "limit_day": limit_day.isoformat()},
    )
    finality.sanction_annul(case=case, actor=actor, as_of=as_of, reason=note, ground=NULLITY_GROUND)
    audit_record(
        actor=actor,
        municipality=case.municipality,
        action="infractioncase.void",
        obj=nullity,
        after=nullity.audit_snapshot(),
    )
    return nullity


def void_lapsed_cases(as_of: dt.date) -> int:
    """The sweep's step: each case in its own (nested) transaction; a voided case is not selected again."""
    voided = 0
    for case, rule, limit_day in cases_to_void(as_of):
        case_void(case=case, rule=rule, actor=None, as_of=as_of, limit_day=limit_day)
        voided += 1
    return voided
