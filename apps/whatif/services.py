"""Writes of the what-if: ask for a run (queued for the task worker) and run it in chunks with progress."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.accounts.actors import Actor, signed_in
from apps.audit.services import audit_record
from apps.lawconfig.config import config_for
from apps.tenancy.models import Municipality
from apps.whatif import lawbridge
from apps.whatif.changes import ProposedChange, change_label, reform_for
from apps.whatif.choices import RunState, SubjectKind
from apps.whatif.models import WhatIfOutcome, WhatIfRun
from apps.whatif.outcomes import flipped_row, outcome_label
from lawcode.bulk import Comparer, outcome_of


@transaction.atomic
def whatif_request(
    *,
    actor: Actor,
    municipality: Municipality,
    regime_id: str,
    change: ProposedChange,
    as_of: dt.date,
) -> WhatIfRun:
    """Record the simulation and queue it; the row, the audit event and the task commit together."""
    from apps.whatif.tasks import run_whatif

    run = WhatIfRun.objects.create(
        municipality=municipality,
        regime_id=regime_id,
        requested_by=signed_in(actor),
        as_of=as_of,
        change_kind=change.kind,
        change=change.to_dict(),
        change_label=change_label(regime_id, change, as_of),
        expected=lawbridge.permits_and_drivers_count(municipality, regime_id, as_of),
    )
    audit_record(
        actor=actor, municipality=municipality, action="whatif.requested", obj=run, after=run.summary()
    )
    run_whatif.enqueue(run.pk)  # the database task backend stores it in this transaction
    return run


def whatif_run_execute(*, run_id: int) -> WhatIfRun:
    """Judge every record under today's configuration and under the change (run by the task worker).

    A second run of the same task finds the run taken and stops. Records are read in chunks; progress and the
    records that flip are written after each chunk, so memory stays flat for a 300,000-vehicle town.
    """
    if not WhatIfRun.objects.filter(pk=run_id, state=RunState.QUEUED).update(state=RunState.RUNNING):
        return WhatIfRun.objects.get(pk=run_id)
    run = WhatIfRun.objects.select_related("municipality", "requested_by").get(pk=run_id)
    try:
        totals = _evaluate(run)
    except Exception:
        WhatIfRun.objects.filter(pk=run.pk).update(state=RunState.FAILED, finished_at=timezone.now())
        raise
    with transaction.atomic():
        WhatIfRun.objects.filter(pk=run.pk).update(
            state=RunState.DONE, finished_at=timezone.now(), totals=totals
        )
        run.refresh_from_db()
        audit_record(
            actor=run.requested_by,
            municipality=run.municipality,
            action="whatif.finished",
            obj=run,
            after={**run.summary(), "totals": totals},
        )
    return run


def _evaluate(run: WhatIfRun) -> dict[str, Any]:
    change = ProposedChange.from_dict(run.change)
    config = config_for(run.municipality, run.regime_id)
    reform = reform_for(run.regime_id, change, run.as_of)
    facts = lawbridge.FactsCache()
    totals: dict[str, Any] = {}
    evaluated = 0
    for source in lawbridge.sources(run, facts):
        comparer = lawbridge.comparer(
            config=config, regime_id=run.regime_id, question=source.question, as_of=run.as_of, reform=reform
        )
        tally = _KindTally()
        for chunk in lawbridge.chunks(source.rows, source.related):
            reads = source.load(chunk, run.as_of)
            flipped = [
                tally.judge(run, source.kind, record, comparer, source.build(record, run.as_of, reads))
                for record in chunk
            ]
            WhatIfOutcome.objects.bulk_create([row for row in flipped if row is not None], batch_size=500)
            evaluated += len(chunk)
            WhatIfRun.objects.filter(pk=run.pk).update(evaluated=evaluated)
        totals[source.kind] = tally.as_dict()
    totals["vehicle"] = {"changed": _changed_vehicles(run)}
    return totals


class _KindTally:
    """Counts of one kind of record: judged, changed, and the transitions (Deferido → Indeferido: n)."""

    def __init__(self) -> None:
        self.judged = 0
        self.transitions: Counter[str] = Counter()

    def judge(
        self, run: WhatIfRun, kind: str, record: Any, comparer: Comparer, facts: Any
    ) -> WhatIfOutcome | None:
        self.judged += 1
        before, after = comparer.compare(facts)
        assert after is not None  # a what-if always carries its change
        if outcome_of(before) == outcome_of(after):
            return None
        self.transitions[f"{outcome_label(before)} → {outcome_label(after)}"] += 1
        return flipped_row(run, kind, record, before, after)

    def as_dict(self) -> dict[str, Any]:
        changed = sum(self.transitions.values())
        return {"judged": self.judged, "changed": changed, "transitions": dict(self.transitions)}


def _changed_vehicles(run: WhatIfRun) -> int:
    return (
        WhatIfOutcome.objects.filter(run=run, subject_kind=SubjectKind.PERMIT)
        .values("permit__vehicle_id")
        .distinct()
        .count()
    )
