"""What inspections ask the law: the checklist, the scheduling deadline (Patrocínio art. 8) and the cure window
after a failure (Patrocínio art. 9 § 3). Every question goes through apps.lawconfig.engine (via licensing's
``ask``, which turns engine errors into Portuguese refusals); nothing here decides a rule.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from apps.licensing.lawbridge import ask, result_date
from apps.registry import lawbridge as registry_lawbridge
from lawcode import Decision
from lawcode import facts as f
from lawcode.checklists import Checklist, ChecklistItem, checklist_for

if TYPE_CHECKING:
    from apps.tenancy.models import Municipality


@dataclass(frozen=True)
class LegalDate:
    """A date the law fixes, the articles it rests on (rendered) and the Decision to store."""

    on: dt.date
    basis: str
    decision: dict[str, Any]


def checklist(regime_id: str) -> Checklist:
    return checklist_for(regime_id)


def item_citations(regime_id: str, item: ChecklistItem, on: dt.date) -> list[str]:
    """The item's dispositivos, rendered with the wording in force on ``on`` (e.g. "CTB, art. 136, IV")."""
    return [citation.render() for citation in checklist(regime_id).citations(item, on=on)]


def _legal_date(decision: Decision | None, key: str) -> LegalDate | None:
    end = result_date(decision, key)
    if decision is None or end is None:
        return None
    basis = "; ".join(citation.render() for citation in decision.citations)
    return LegalDate(end, basis, decision.to_dict())


def scheduling_deadline(
    *, municipality: Municipality, regime_id: str, fee_paid_on: dt.date, as_of: dt.date
) -> LegalDate | None:
    """The last day to hold the inspection after its fee was paid, where the regime fixes one."""
    decision = ask(
        municipality=municipality,
        regime_id=regime_id,
        question="inspection_scheduling",
        facts=registry_lawbridge.inspection_facts(None, regime_id=regime_id, fee_paid_on=fee_paid_on),
        as_of=as_of,
        field="scheduled_for",
    )
    return _legal_date(decision, "end")


def cure_deadline(
    *, municipality: Municipality, regime_id: str, performed_on: dt.date, as_of: dt.date
) -> LegalDate | None:
    """The last day to fix a failed vehicle, where the regime's checklist declares a legal cure window."""
    cure = checklist(regime_id).failure_cure
    if cure is None:
        return None
    facts = f.DeadlineFacts(start=performed_on, instance=cure.instance)
    decision = ask(
        municipality=municipality,
        regime_id=regime_id,
        question="cure_deadline",
        facts=facts,
        as_of=as_of,
        field="result",
    )
    return _legal_date(decision, "end")
