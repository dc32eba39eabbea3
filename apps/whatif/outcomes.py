"""How a flipped record is told: the outcome in Portuguese, the finding that flips, its article and the
counterfactual — from the engine's two decisions, never re-deciding anything."""

from __future__ import annotations

from typing import Any

from apps.tenancy.regimes import instrument_of
from apps.whatif.choices import SubjectKind
from apps.whatif.models import WhatIfOutcome, WhatIfRun
from lawcode.bulk import FindingChange, Result, finding_changes
from lawcode.decision import OUTCOME_PT, Decision, Status

NOT_APPLIED = "Lei não aplicável aos dados"


def outcome_label(result: Result) -> str:
    if isinstance(result, Decision):
        return OUTCOME_PT.get(result.outcome, result.outcome)
    return NOT_APPLIED


def flipped_row(run: WhatIfRun, kind: str, record: Any, before: Result, after: Result) -> WhatIfOutcome:
    finding, articles, counterfactual = _why(before, after)
    return WhatIfOutcome(
        run=run,
        subject_kind=kind,
        permit=record if kind == SubjectKind.PERMIT else None,
        driver=record if kind == SubjectKind.DRIVER else None,
        label=_label(kind, record),
        vehicle_plate=record.vehicle.plate if kind == SubjectKind.PERMIT else "",
        holder=str(record.operator)[:200],
        before=outcome_label(before),
        after=outcome_label(after),
        finding=finding,
        articles=articles[:300],
        counterfactual=counterfactual,
    )


def _label(kind: str, record: Any) -> str:
    if kind == SubjectKind.PERMIT:
        return f"{instrument_of(record.regime_id).title} {record.number}"
    return str(record.person.name)[:200]


def _why(before: Result, after: Result) -> tuple[str, str, str]:
    """The finding that flips (one the change leaves unmet first), its article and counterfactual."""
    if not isinstance(after, Decision):
        return f"A lei não pôde ser aplicada: {after.message_pt}", "", ""
    changes = finding_changes(before, after)
    if not changes:
        return "O resultado muda sem que uma exigência mude de situação.", "", ""
    chosen = _most_telling(changes)
    shown = chosen.finding
    return shown.message, chosen.articles, shown.counterfactual or ""


def _most_telling(changes: list[FindingChange]) -> FindingChange:
    for wanted in (Status.NOT_MET, Status.MET):
        for change in changes:
            if change.after is not None and change.after.status == wanted:
                return change
    return changes[0]
