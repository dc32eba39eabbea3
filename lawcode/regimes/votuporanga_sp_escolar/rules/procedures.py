"""Deadlines and procedure questions: appeal to the Secretary (art. 17) and to the JARI (art. 18), the 24 hours
to regularize (art. 16), and the conversion of UFM fines to reais.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from lawcode.context import Context
from lawcode.deadlines import Deadline, count_days, count_hours
from lawcode.decision import RuleResult, Status, format_decimal_pt, format_value_pt
from lawcode.errors import InvalidFactError
from lawcode.facts import DeadlineFacts, FineFacts, NoticeFacts
from lawcode.regime import rule

from .common import br, day_counting, fine_valuation_date

FIRST_INSTANCE = ("secretary", "first")
DEADLINE_CITES = ("lei9784:art59", "lei9784:art66", "lei9784:art66_par1", "lei9784:art66_par2")


@rule("appeal_deadline", cites=("art17", "art17_parun", "art18") + DEADLINE_CITES)
def appeal_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    instance = facts.instance or "secretary"
    if instance in FIRST_INSTANCE:
        return _days_deadline(
            ctx,
            facts.start,
            int(ctx.param("appeal_days")),
            "secretary",
            "Recurso ao Secretário de Trânsito, Transporte e Segurança",
            ("art17", "art17_parun"),
        )
    if instance != "jari":
        raise InvalidFactError("instance", f"unknown appeal instance {instance!r}; use 'secretary' or 'jari'")
    option = ctx.interpretation("INT-VOT-JARI-DEADLINE")
    if option == "not_provided":
        finding = ctx.finding(
            "jari_deadline",
            Status.INFO,
            "A lei prevê recurso à JARI mas não fixa prazo; nenhum prazo é calculado (leitura adotada)",
            cites=("art18",),
        )
        return RuleResult("computed", [finding], {"instance": "jari", "end": None, "days": None})
    days = int(ctx.param("jari_appeal_days" if option == "lei9784" else "appeal_days"))
    cites = ("art18", "lei9784:art59") if option == "lei9784" else ("art18", "art17")
    return _days_deadline(ctx, facts.start, days, "jari", "Recurso à JARI", cites)


def _days_deadline(
    ctx: Context, start: dt.date, days: int, instance: str, label: str, cites: tuple[str, ...]
) -> RuleResult:
    counting, extend = day_counting(ctx)
    deadline = count_days(
        start, days, counting=counting, calendar=ctx.calendar, extend_to_business_day=extend
    )
    finding = ctx.finding(
        "appeal_deadline",
        Status.INFO,
        f"{label}: {days} dias contados de {br(start)}, até {br(deadline.end)} ({deadline.explanation()})",
        cites=cites + _counting_cites(deadline),
    )
    result: dict[str, Any] = {
        "instance": instance,
        "start": start,
        "end": deadline.end,
        "days": days,
        "steps": list(deadline.steps),
    }
    return RuleResult("computed", [finding], result)


def _counting_cites(deadline: Deadline) -> tuple[str, ...]:
    """The Lei 9.784 dispositivos the arithmetic used (others, like CPC art. 219, are named in the steps)."""
    return tuple(c for c in deadline.citations if c in DEADLINE_CITES)


@rule("cure_deadline", cites=("art16",))
def cure_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    notified_at = ctx.require(facts.start_time, "start_time")
    hours = int(ctx.param("cure_hours"))
    _, extend = day_counting(ctx)
    deadline = count_hours(notified_at, hours, calendar=ctx.calendar, extend_to_business_day=extend)
    finding = ctx.finding(
        "cure_deadline",
        Status.INFO,
        f"Regularizar e apresentar o veículo ou o documento em "
        f"{hours} horas: até {br(deadline.end.date())} às {deadline.end:%H:%M} "
        f"({'; '.join(deadline.steps)})",
        cites=("art16",),
    )
    return RuleResult(
        "computed", [finding], {"end": deadline.end, "hours": hours, "steps": list(deadline.steps)}
    )


@rule("fine_amount", cites=("art4_par5", "art13"))
def fine_amount(ctx: Context, facts: FineFacts) -> RuleResult:
    valued_on = _valuation_date(ctx, facts)
    brl = ctx.to_brl(facts.quantity, facts.unit, valued_on)
    unit_value = ctx.to_brl(Decimal(1), facts.unit, valued_on)
    quantity = (
        format_value_pt(facts.quantity, "brl")
        if facts.unit == "brl"
        else f"{format_decimal_pt(facts.quantity)} {ctx.regime.vocabulary.unit_label(facts.unit)}"
    )
    finding = ctx.finding(
        "fine_amount",
        Status.INFO,
        f"{quantity} em {br(valued_on)}: {format_value_pt(brl, 'brl')}",
        cites=("art13", "art4_par5"),
    )
    result = {"brl": brl, "unit_value": unit_value, "valued_on": valued_on, "quantity": facts.quantity}
    return RuleResult("computed", [finding], result)


def _valuation_date(ctx: Context, facts: FineFacts) -> dt.date:
    return fine_valuation_date(
        ctx,
        infraction_date=facts.infraction_date,
        auto_date=facts.auto_date,
        decided_final_on=facts.decided_final_on,
        guide_issue_date=facts.guide_issue_date,
    )


@rule("ciencia_date", cites=("art17",))
def ciencia_date(ctx: Context, facts: NoticeFacts) -> RuleResult:
    """Art. 17 counts the appeal from the receipt of the notice; the law provides no deemed (ficta) notice."""
    # A returned letter carries its return date in received_on, but art. 17 needs actual receipt.
    if facts.channel == "edital" or facts.returned_reason:
        finding = ctx.finding(
            "ciencia",
            Status.WARNING,
            "A Lei 5.722 conta o recurso do recebimento da "
            "notificação e não prevê ciência por edital nem por carta devolvida; notifique "
            "pessoalmente, por AR ou por meio eletrônico com confirmação",
            cites=("art17",),
        )
        return RuleResult("computed", [finding], {"ciencia_on": None, "appeal_counts_from": None})
    received = ctx.require(facts.received_on, "received_on")
    finding = ctx.finding(
        "ciencia",
        Status.INFO,
        f"Ciência em {br(received)}, data do recebimento da notificação; "
        "o prazo de recurso conta a partir dela",
        cites=("art17",),
    )
    return RuleResult("computed", [finding], {"ciencia_on": received, "appeal_counts_from": received})
