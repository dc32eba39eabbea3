"""Questions due process asks the law (through apps.lawconfig.engine): appeal, judgment and payment deadlines,
and the sanction of a case from the operator's history of final decisions (operator_history: only final sanctions
with a penalty count, decided on or before ``as_of``; annulled ones and those still open to appeal never do; the
operator answers for its drivers, Olímpia art. 28, so every case of the operator counts, whoever drove).

A deadline answer is None when the regime does not answer the question or sets no deadline (the screens then
say so); the sanction is never guessed: an engine error reaches the user as a Portuguese refusal.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

import lawcode
from apps.dueprocess.choices import SanctionState
from apps.dueprocess.models import Judgment, Regularization, Sanction
from apps.dueprocess.procedure import proceeding
from apps.enforcement.models import InfractionCase as CaseRow
from apps.enforcement.regime_rules import cite_pt
from apps.lawconfig import engine
from apps.lawconfig.config import calendar_for
from apps.registry.lawbridge import operator_facts
from lawcode import Decision
from lawcode.errors import InvalidFactError, LawcodeError, MissingFactError, QuestionNotApplicableError
from lawcode.facts import DeadlineFacts, InfractionCase, Operator, PriorSanction
from lawcode.procedure import ProcedureStep, SpecialProcedure
from outorga.localdates import local_date


@dataclass(frozen=True)
class Deadline:
    end: dt.date
    decision: dict[str, Any]
    message: str


def _deadline(case: CaseRow, question: str, facts: DeadlineFacts, as_of: dt.date) -> Deadline | None:
    try:
        decision = engine.evaluate(
            municipality=case.municipality,
            question=question,
            facts=facts,
            as_of=as_of,
            regime_id=case.regime_id,
        )
    except (QuestionNotApplicableError, MissingFactError, InvalidFactError):
        return None
    end = decision.result.get("end")
    if not isinstance(end, dt.date):
        return None
    return Deadline(end, decision.to_dict(), "; ".join(f.message for f in decision.findings))


def special_procedure(case: CaseRow) -> SpecialProcedure | None:
    """The procedure the case's infraction follows instead of the ordinary one (procedure.yaml ``procedures``)."""
    return lawcode.get_regime(case.regime_id).procedure.procedure_for(case.infraction_code)


def _step_deadline(case: CaseRow, step: ProcedureStep, start: dt.date) -> Deadline:
    """A step of the infraction's own procedure, counted as that procedure counts (its article in the message)."""
    special = special_procedure(case)
    assert special is not None
    counted = special.deadline(step, start, calendar_for(case.municipality, case.regime_id))
    message = (
        f"{step.label}: {step.days} {special.counting.label_pt} ({special.label}, "
        f"{cite_pt(case.regime_id, step.cite, start)})"
    )
    decision = {
        "question": "procedure_step",
        "result": {"end": counted.end.isoformat(), "procedure": special.key, "step": step.kind},
        "explanation": counted.explanation(),
        "citations": [special.cite, step.cite, *counted.citations],
    }
    return Deadline(counted.end, decision, message)


def appeal_deadline(case: CaseRow, instance: str, start: dt.date, as_of: dt.date) -> Deadline | None:
    special = special_procedure(case)
    step = special.filing_step(instance) if special else None
    if step is not None:
        return _step_deadline(case, step, start)
    spec = proceeding(case.regime_id).instances.get(instance)
    engine_name = spec.engine_name if spec else None
    return _deadline(case, "appeal_deadline", DeadlineFacts(start=start, instance=engine_name), as_of)


def judgment_deadline(case: CaseRow, instance: str, filed_on: dt.date, as_of: dt.date) -> Deadline | None:
    special = special_procedure(case)
    step = special.judgment_step(instance) if special else None
    if step is not None:
        return _step_deadline(case, step, filed_on)
    spec = proceeding(case.regime_id).instances.get(instance)
    engine_name = spec.engine_name if spec else None
    return _deadline(case, "judgment_deadline", DeadlineFacts(start=filed_on, instance=engine_name), as_of)


def proceeding_ceiling(case: CaseRow) -> str | None:
    """The ceiling of the whole proceeding the infraction's procedure sets, in Portuguese (None: no ceiling)."""
    special = special_procedure(case)
    if special is None:
        return None
    calendar = calendar_for(case.municipality, case.regime_id)
    return special.ceiling_pt(
        case.drawn_on, calendar, lambda ref: cite_pt(case.regime_id, ref, case.drawn_on)
    )


def payment_deadline(case: CaseRow, ciencia_on: dt.date, as_of: dt.date) -> Deadline | None:
    return _deadline(case, "payment_deadline", DeadlineFacts(start=ciencia_on), as_of)


def infraction_date(case: CaseRow) -> dt.date:
    return local_date(case.occurred_at)


def _operator(case: CaseRow, as_of: dt.date) -> Operator:
    if case.operator is None:
        # Clandestine transport: nobody in the registry; the offender named on the auto answers for it.
        return Operator(kind="PJ" if len(case.offender_document) == 14 else "PF")
    history = operator_history(case.operator, as_of, exclude_case=case.pk)
    return operator_facts(case.operator, as_of=as_of, history=history)


def _committed_by(case: CaseRow) -> str | None:
    """The driver who committed it when it is not the operator in person (Olímpia art. 28, joint liability)."""
    if case.operator is None or not case.driver_name:
        return None
    holder = case.operator.holder_name
    return None if case.driver_name.strip().casefold() == holder.strip().casefold() else case.driver_name


def regularized_by(case: CaseRow) -> dt.date | None:
    """The day the irregularity was regularized (Olímpia art. 24 sole §), as recorded with its evidence."""
    row = Regularization.objects.filter(case=case).first()
    return row.regularized_on if row else None


def judged_quantities(case: CaseRow) -> dict[str, Decimal]:
    """What the judging authority fixed within the legal range, by penalty key; a later instance's choice
    replaces an earlier one."""
    chosen: dict[str, Decimal] = {}
    for judgment in Judgment.objects.filter(appeal__case=case).order_by("decided_on", "pk"):
        chosen.update({key: Decimal(str(value)) for key, value in (judgment.chosen or {}).items()})
    return chosen


def sanction_facts(case: CaseRow, decided_final_on: dt.date | None, as_of: dt.date) -> InfractionCase:
    return InfractionCase(
        code=case.infraction_code,
        date=infraction_date(case),
        operator=_operator(case, as_of),
        already_punished_as_traffic_only=case.already_punished_as_traffic_only,
        decided_final_on=decided_final_on,
        occurred_at=timezone.localtime(case.occurred_at),
        auto_date=case.drawn_on,
        guide_issue_date=as_of,
        committed_by=_committed_by(case),
        auto_omissions=tuple(case.auto_omissions),
        regularized_by=regularized_by(case),
        judged=judged_quantities(case),
        # A missing unit value (next year's UFESP) never holds the decision back: finance values the fine once
        # the value is entered (apps.finance.services.fine_valuation_for_guide), its guide waiting till then.
        fine_value_may_wait=True,
    )


def sanction(case: CaseRow, decided_final_on: dt.date | None, as_of: dt.date) -> Decision:
    """The engine's penalty for the case; a Portuguese ValidationError when the law cannot decide it."""
    facts = sanction_facts(case, decided_final_on, as_of)
    try:
        return engine.evaluate(
            municipality=case.municipality,
            question="sanction",
            facts=facts,
            as_of=as_of,
            regime_id=case.regime_id,
        )
    except LawcodeError as error:
        raise ValidationError(
            {"sanction": f"Penalidade: a lei não permite calculá-la — {error.message_pt}"}
        ) from None


def if_not_regularized(row: Any) -> dict[str, Any] | None:
    """The engine's answer for a sanction whose irregularity was not regularized in time (Olímpia art. 24 sole
    §: cassação, and the art. 26 ban with its dates), as stored with the final decision; a row stored before
    the engine gave it asks again as of the last day to regularize."""
    stored = (row.decision.get("result") or {}).get("if_not_regularized") if row.decision else None
    if stored or row.cassation_if_not_regularized_by is None:
        return stored or None
    decision = sanction(row.case, row.decided_final_on, row.cassation_if_not_regularized_by)
    answer = decision.to_dict()["result"].get("if_not_regularized")
    return answer or None


def _prior(row: Sanction) -> PriorSanction:
    assert row.decided_final_on is not None  # final sanctions always carry it
    kinds = tuple(dict.fromkeys(str(p.get("kind")) for p in row.penalties if p.get("kind")))
    return PriorSanction(
        infraction_code=row.case.infraction_code,
        infraction_date=local_date(row.case.occurred_at),
        final_on=row.decided_final_on,
        penalties=kinds,
        suspension_days=row.suspension_days,
    )


def operator_history(
    operator: Any, as_of: dt.date, exclude_case: int | None = None
) -> tuple[PriorSanction, ...]:
    """The operator's final sanctions with a penalty, decided on or before ``as_of``, as the engine's facts."""
    rows = Sanction.objects.filter(
        operator=operator, state=SanctionState.FINAL, outcome="penalty", decided_final_on__lte=as_of
    ).select_related("case")
    if exclude_case is not None:
        rows = rows.exclude(case_id=exclude_case)
    return tuple(_prior(row) for row in rows.order_by("decided_final_on", "pk"))
