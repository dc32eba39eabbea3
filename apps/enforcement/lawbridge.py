"""Questions enforcement asks the law (through apps.lawconfig.engine): ciência, notice limit, appeal deadline.

Each function returns the engine's answer and its Decision (JSON, replayable), or None when the regime does
not answer the question or lacks a fact it needs yet (the screen then says what is missing).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from apps.lawconfig import engine
from lawcode.errors import MissingFactError, QuestionNotApplicableError
from lawcode.facts import DeadlineFacts, NoticeFacts


@dataclass(frozen=True)
class Answer:
    value: dt.date | None
    decision: dict[str, Any]
    message: str


def _ask(case: Any, question: str, facts: Any, as_of: dt.date, key: str) -> Answer | None:
    try:
        decision = engine.evaluate(
            municipality=case.municipality, question=question, facts=facts, as_of=as_of, regime_id=case.regime_id
        )
    except (QuestionNotApplicableError, MissingFactError):
        return None
    value = decision.result.get(key)
    message = "; ".join(finding.message for finding in decision.findings)
    return Answer(value if isinstance(value, dt.date) else None, decision.to_dict(), message)


def ciencia(case: Any, facts: NoticeFacts, as_of: dt.date) -> Answer | None:
    """The day the offender is deemed to know the notice (engine ``ciencia_date``)."""
    return _ask(case, "ciencia_date", facts, as_of, "ciencia_on")


def notice_limit(case: Any, as_of: dt.date, auto_received_on: dt.date | None = None) -> Answer | None:
    """The last day to notify the penalty (Patrocínio art. 19 §1); None where the regime sets no limit."""
    facts = NoticeFacts(
        channel="ar", infraction_date=timezone.localtime(case.occurred_at).date(), auto_date=case.drawn_on,
        auto_received_on=auto_received_on,
    )  # fmt: skip
    return _ask(case, "notice_limit", facts, as_of, "end")


def appeal_deadline(case: Any, start: dt.date, instance: str, as_of: dt.date) -> Answer | None:
    """The last day to appeal, counted from ciência (engine ``appeal_deadline``)."""
    return _ask(case, "appeal_deadline", DeadlineFacts(start=start, instance=instance), as_of, "end")

