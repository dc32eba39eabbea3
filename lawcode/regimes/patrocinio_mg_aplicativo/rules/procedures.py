"""Procedures over dated events: cure windows (art. 7 parágrafo único, art. 9 §3), vistoria scheduling and
periodicity (arts. 8 and 9), authorization validity (art. 4 II b) and temporary substitution (art. 11-A).
"""

from __future__ import annotations

from dataclasses import dataclass

from lawcode.context import Context
from lawcode.decision import RuleResult, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import DeadlineFacts, InspectionFacts
from lawcode.regime import rule

from .common import DEADLINE_CITES, br, days_deadline, years_later


@dataclass(frozen=True)
class CureWindow:
    """One of the two 15-day windows: its parameter, dispositivo, what starts it and what ends it."""

    parameter: str
    cite: str
    started_by: str
    consequence: str


CURE_WINDOWS = {
    "refusal": CureWindow(
        "cure_deadline_days",
        "art7_parun",
        "indeferimento do pedido",
        "arquivamento do pedido e perda das taxas recolhidas",
    ),
    "inspection": CureWindow(
        "inspection_cure_days", "art9_par3", "reprovação na vistoria", "indeferimento da autorização"
    ),
}


@rule("cure_deadline", cites=("art7_parun", "art9_par3", *DEADLINE_CITES))
def cure_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """``instance``: "refusal" (art. 7 parágrafo único) or "inspection" (failed vistoria, art. 9 §3)."""
    instance = ctx.require(facts.instance, "instance")
    window = CURE_WINDOWS.get(instance)
    if window is None:
        raise InvalidFactError("instance", f"use one of: {', '.join(CURE_WINDOWS)} (got {instance!r})")
    deadline = days_deadline(ctx, facts.start, window.parameter)
    expired = ctx.as_of > deadline.end
    status = Status.NOT_MET if expired else Status.MET
    state = f"prazo encerrado: {window.consequence}" if expired else f"se não sanado, {window.consequence}"
    message = (
        f"Prazo para sanar a pendência após {window.started_by} em {br(facts.start)}: até "
        f"{br(deadline.end)} ({state})."
    )
    finding = ctx.finding("cure_window", status, message, cites=(window.cite, *deadline.citations))
    result = {
        "end": deadline.end,
        "expired": expired,
        "consequence": window.consequence,
        "steps": list(deadline.steps),
    }
    return RuleResult("computed", [finding], result)


@rule("inspection_scheduling", cites=("art8", *DEADLINE_CITES))
def inspection_scheduling(ctx: Context, facts: InspectionFacts) -> RuleResult:
    paid = ctx.require(facts.fee_paid_on, "fee_paid_on")
    deadline = days_deadline(ctx, paid, "inspection_scheduling_days")
    fee = ctx.param("inspection_fee_ufm")
    message = (
        f"Taxa de vistoria ({fee} UFM) paga em {br(paid)}: a vistoria deve ser agendada até "
        f"{br(deadline.end)}."
    )
    finding = ctx.finding("inspection_scheduling", Status.INFO, message, cites=("art8", *deadline.citations))
    return RuleResult(
        "computed", [finding], {"end": deadline.end, "fee_ufm": fee, "steps": list(deadline.steps)}
    )


@rule("inspection_calendar", cites=("art4_incII_b", "art9", *DEADLINE_CITES))
def inspection_calendar(ctx: Context, facts: InspectionFacts) -> RuleResult:
    """Patrocínio has no calendar by plate digit: the vistoria is yearly from the last approval."""
    last = ctx.require(facts.last_inspection, "last_inspection")
    due = years_later(ctx, last, int(ctx.param("inspection_interval_years")))
    overdue = ctx.as_of > due.end
    message = f"Última vistoria em {br(last)}; a próxima vence em {br(due.end)}" + (
        " — atrasada." if overdue else "."
    )
    finding = ctx.finding(
        "annual_inspection",
        Status.NOT_MET if overdue else Status.MET,
        message,
        cites=("art4_incII_b", "art9", *due.citations),
    )
    return RuleResult("computed", [finding], {"next_due": due.end, "overdue": overdue})


@rule("permit_validity", cites=("art4_incII_b", "art9", *DEADLINE_CITES))
def permit_validity(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """``start``: the day the authorization was issued after the approved vistoria."""
    validity = years_later(ctx, facts.start, int(ctx.param("permit_validity_years")))
    message = (
        f"Autorização expedida em {br(facts.start)}, válida até {br(validity.end)}; renova-se com a "
        "vistoria anual."
    )
    finding = ctx.finding(
        "permit_validity", Status.INFO, message, cites=("art4_incII_b", "art9", *validity.citations)
    )
    return RuleResult("computed", [finding], {"valid_until": validity.end, "steps": list(validity.steps)})


@rule("temporary_vehicle", cites=("art11A", "art11A_parun"))
def temporary_vehicle(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """The law fixes no duration: the substitution lasts while the impediment lasts."""
    message = (
        f"Substituição temporária iniciada em {br(facts.start)}: a lei não fixa prazo máximo; vale enquanto "
        "durar o imprevisto, com comunicação imediata da plataforma e o alvará visível no veículo locado."
    )
    finding = ctx.finding("temporary_duration", Status.INFO, message, cites=("art11A", "art11A_parun"))
    return RuleResult("computed", [finding], {"start": facts.start, "max_days": None, "until": None})
