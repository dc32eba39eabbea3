"""Questions enforcement asks the law (through apps.lawconfig.engine): ciência, notice limit, appeal deadline.

Each function returns the engine's answer and its Decision (JSON, replayable), or None when the regime does
not answer the question or lacks a fact it needs yet (the screen then says what is missing).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import lawcode
from apps.enforcement.hooks import operator_history
from apps.lawconfig import engine
from apps.lawconfig.config import calendar_for, citation_text, config_for
from apps.registry.lawbridge import operator_facts
from lawcode.decision import format_value_pt
from lawcode.errors import (
    InvalidFactError,
    MissingFactError,
    MissingParameterError,
    QuestionNotApplicableError,
    RegimeDefinitionError,
)
from lawcode.facts import DeadlineFacts, InfractionCase, NoticeFacts, Operator, PriorSanction
from outorga.localdates import local_date

# The operator's final sanctions as the law reads them (recidivism): what the history provider due process
# registers in apps.enforcement.hooks returns, typed here, where rows become lawcode facts.
History = tuple[PriorSanction, ...]


@dataclass(frozen=True)
class Answer:
    value: dt.date | None
    decision: dict[str, Any]
    message: str


def _ask(case: Any, question: str, facts: Any, as_of: dt.date, key: str) -> Answer | None:
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
    value = decision.result.get(key)
    message = "; ".join(finding.message for finding in decision.findings)
    return Answer(value if isinstance(value, dt.date) else None, decision.to_dict(), message)


def notice_facts(notice: Any, case: Any, published_on: dt.date | None = None) -> NoticeFacts:
    """A notice of the case as the law reads it: its channel, dates, the reason it came back, and the case's
    infraction and auto dates (``published_on``: the edital's, when the notice is published)."""
    return NoticeFacts(
        channel=notice.channel,
        sent_on=notice.sent_on,
        received_on=notice.received_on,
        published_on=published_on,
        returned_reason=notice.returned_reason or None,
        infraction_date=local_date(case.occurred_at),
        auto_date=case.drawn_on,
    )


def ciencia(case: Any, facts: NoticeFacts, as_of: dt.date) -> Answer | None:
    """The day the offender is deemed to know the notice (engine ``ciencia_date``)."""
    return _ask(case, "ciencia_date", facts, as_of, "ciencia_on")


def notice_limit(case: Any, as_of: dt.date, auto_received_on: dt.date | None = None) -> Answer | None:
    """The last day to notify the penalty (Patrocínio art. 19 §1); None where the regime sets no limit."""
    facts = NoticeFacts(
        channel="ar",
        infraction_date=local_date(case.occurred_at),
        auto_date=case.drawn_on,
        auto_received_on=auto_received_on,
    )
    return _ask(case, "notice_limit", facts, as_of, "end")


def appeal_deadline(case: Any, start: dt.date, instance: str, as_of: dt.date) -> Answer | None:
    """The last day to appeal, counted from ciência (engine ``appeal_deadline``; ``instance`` is the name the
    regime's rule takes, as its procedure.yaml declares it)."""
    return _ask(case, "appeal_deadline", DeadlineFacts(start=start, instance=instance), as_of, "end")


def defence_deadline(case: Any, start: dt.date, as_of: dt.date) -> Answer | None:
    """The last day of the first instance against the auto; None where the law sets no deadline for it (the
    regime's procedure.yaml declares its ``engine_instance`` absent)."""
    procedure = lawcode.get_regime(case.regime_id).procedure
    special = procedure.procedure_for(case.infraction_code)
    step = special.filing_step(procedure.due_process.instances[0].key) if special else None
    if special is not None and step is not None:  # the infraction's own procedure (procedure.yaml procedures)
        counted = special.deadline(step, start, calendar_for(case.municipality, case.regime_id))
        message = f"{step.label}: {step.days} {special.counting.label_pt} ({special.label}); {counted.explanation()}"
        decision = {"question": "procedure_step", "result": {"end": counted.end.isoformat()}}
        return Answer(counted.end, decision, message)
    first = procedure.due_process.instances[0]
    name = first.engine_instance.cite
    return None if name is None else appeal_deadline(case, start, name, as_of)


def ciencia_refusal(case: Any, facts: NoticeFacts, as_of: dt.date) -> str:
    """Why the law gives no ciência for this notice (the engine's own words), for the refusal message."""
    try:
        decision = engine.evaluate(
            municipality=case.municipality,
            question="ciencia_date",
            facts=facts,
            as_of=as_of,
            regime_id=case.regime_id,
        )
    except (MissingFactError, InvalidFactError) as error:
        return error.message_pt or str(error)
    except QuestionNotApplicableError:
        return "a lei deste município não trata da ciência da notificação."
    return "; ".join(
        f"{finding.message} ({', '.join(c.render() for c in finding.citations)})"
        for finding in decision.findings
    )


def sanction_preview(case: Any, as_of: dt.date) -> Answer | None:
    """The penalty the engine would impose on this auto today, from the operator's final history (for the
    printed auto's «valor da multa», Olímpia art. 30 VII); the decision itself belongs to due process."""
    if case.operator is not None:
        operator = operator_facts(case.operator, as_of=as_of, history=operator_history(case.operator, as_of))
    else:
        operator = Operator(kind="PF")
    facts = InfractionCase(
        code=case.infraction_code,
        date=local_date(case.occurred_at),
        operator=operator,
        already_punished_as_traffic_only=case.already_punished_as_traffic_only,
        auto_date=case.drawn_on,
        committed_by=case.driver_name or None,
        auto_omissions=tuple(case.auto_omissions),
    )
    try:
        decision = engine.evaluate(
            municipality=case.municipality,
            question="sanction",
            facts=facts,
            as_of=as_of,
            regime_id=case.regime_id,
        )
    except (QuestionNotApplicableError, MissingFactError, InvalidFactError, MissingParameterError):
        return None
    return Answer(
        None, decision.to_dict(), penalty_text(case.regime_id, decision.result.get("penalties", []))
    )


def first_offence_penalties(
    municipality: Any, regime_id: str, codes: list[str], as_of: dt.date
) -> dict[str, str]:
    """What each infraction of the catalog costs a first offender today (no prior sanction), in words, for the
    agent's picker: the severity and the amount are seen before choosing. Codes the law cannot price without the
    case's own facts are left out (the auto shows its preview once drawn)."""
    facts = {
        code: InfractionCase(code=code, date=as_of, operator=Operator(kind="PF"), auto_date=as_of)
        for code in codes
    }
    answers = engine.evaluate_each(
        municipality=municipality, question="sanction", facts=facts, as_of=as_of, regime_id=regime_id
    )
    return {
        code: penalty_text(regime_id, answer.result.get("penalties", []))
        for code, answer in answers.items()
        if not isinstance(answer, lawcode.LawcodeError)
    }


def penalty_text(regime_id: str, penalties: list[dict[str, Any]]) -> str:
    """«Multa de 15 UFESP (R$ 559,05)», «Suspensão de 30 dias», «Multa de R$ 286,00»… joined, each penalty under
    the label its regime declares (penalties.yaml); «nenhuma penalidade municipal» when empty."""
    declared = lawcode.get_regime(regime_id).penalties
    parts = []
    for item in penalties:
        if declared is None:  # a regime that sanctions must declare its penalties; lawcode refuses to load it
            raise RegimeDefinitionError(f"regime {regime_id} declares no penalties.yaml", field="penalties")
        text = declared.label(str(item.get("kind")))
        if item.get("quantity") is not None:
            unit = str(item.get("unit", ""))
            text += f" de {format_value_pt(item['quantity'], unit)}"
            if item.get("brl") is not None and unit != "brl":
                text += f" ({format_value_pt(item['brl'], 'brl')})"
        elif item.get("days"):
            text += f" de {item['days']} dias"
        parts.append(text + (" (em dobro)" if item.get("doubled") else ""))
    return "; ".join(parts) or "nenhuma penalidade municipal"


def _electronic(case: Any) -> tuple[Any, Mapping[str, str]]:
    """The regime's electronic notice declaration (procedure.yaml) and the municipality's interpretation choices."""
    declared = lawcode.get_regime(case.regime_id).procedure.electronic_notice
    return declared, config_for(case.municipality, case.regime_id).interpretations


def _render(case: Any, on: dt.date) -> Callable[[str], str]:
    return lambda ref: citation_text(case.municipality, case.regime_id, ref, on)


def electronic_refusal(case: Any, purpose: str, on: dt.date) -> str | None:
    """Why a notice of ``purpose`` may not go by the electronic channel in this case's regime (Portuguese, with
    the article or the named interpretation), or None when the regime allows it."""
    declared, chosen = _electronic(case)
    if declared is not None and declared.allows(purpose, chosen):
        return None
    if declared is None:
        return "O regime não declara a notificação eletrônica (procedure.yaml)."
    return str(declared.refusal_pt(purpose, chosen, _render(case, on)))


def electronic_basis(case: Any, on: dt.date) -> str:
    """The article (or named interpretation) the electronic channel rests on, for messages."""
    declared, _ = _electronic(case)
    if declared is None or declared.basis is None:
        return ""
    return str(declared.basis.render_pt(_render(case, on)))


@dataclass(frozen=True)
class Lapse:
    """Ciência by lapse of an electronic notice not opened: the day, and how it is grounded."""

    ciencia_on: dt.date
    days: int
    basis: str
    counting: str


def electronic_lapse(case: Any, made_available_on: dt.date) -> Lapse | None:
    """The day an electronic notice made available on ``made_available_on`` and never opened is taken as known,
    per the regime's declared lapse (an article or the municipality's interpretation); None when there is none."""
    declared, chosen = _electronic(case)
    if declared is None or declared.lapse is None:
        return None
    lapse = declared.lapse
    days = lapse.days_for(chosen)
    if days is None:
        return None
    day = lapse.ciencia_on(made_available_on, chosen, calendar_for(case.municipality, case.regime_id))
    if day is None:
        return None
    return Lapse(day, days, lapse.basis.render_pt(_render(case, made_available_on)), lapse.counting.label_pt)
