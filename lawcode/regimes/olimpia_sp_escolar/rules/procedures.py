"""Procedures and deadlines: ciência (art. 34), appeals (arts. 30 VIII, 31, 32), judgment (art. 31 § 2º),
payment and refund (arts. 33 and 35), permit validity (art. 13) and temporary vehicle (art. 14)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from lawcode.context import Context
from lawcode.deadlines import (
    DayCounting,
    Deadline,
    MonthRounding,
    count_days,
    count_months,
    edital_notice_period,
)
from lawcode.decision import Finding, RuleResult, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import DeadlineFacts, NoticeFacts
from lawcode.regime import rule

from .common import br, day_counting

# The counting rules a deadline may rest on (the deadline functions name the ones they applied).
COUNTING_CITES = (
    "lei9784:art66",
    "lei9784:art66_par1",
    "lei9784:art66_par2",
    "lei9784:art66_par3",
    "cpc:art219",
)
RETURNED_VALID = ("address_change", "refusal", "bad_records")


def deadline_finding(ctx: Context, code: str, deadline: Deadline, what: str, cites: Iterable[str]) -> Finding:
    """A finding citing the article and the counting rules actually applied (those we may cite)."""
    counting = [c for c in deadline.citations if c in COUNTING_CITES]
    return ctx.finding(
        code,
        Status.INFO,
        f"{what}: até {br(deadline.end)} ({deadline.explanation()})",
        cites=(*cites, *counting),
        data={"steps": list(deadline.steps)},
    )


def computed(findings: list[Finding], deadline: Deadline, **extra: object) -> RuleResult:
    return RuleResult(
        "computed",
        findings,
        {"start": deadline.start, "end": deadline.end, "steps": list(deadline.steps), **extra},
    )


def days_deadline(ctx: Context, start: dt.date, param: str, *, plain_days: bool) -> Deadline:
    counting, extend = day_counting(ctx, plain_days=plain_days)
    return count_days(
        start, int(ctx.param(param)), counting=counting, calendar=ctx.calendar, extend_to_business_day=extend
    )


APPEALS = {
    "first": ("appeal_first_instance_days", ("art31", "art30_incVIII"), "Recurso em primeira instância"),
    "second": ("appeal_second_instance_days", ("art32",), "Recurso em segunda instância"),
}


@rule("appeal_deadline", cites=("art31", "art30_incVIII", "art32", *COUNTING_CITES))
def appeal_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """10 days from ciência of the auto (art. 31) or of the first-instance decision (art. 32)."""
    instance = ctx.require(facts.instance, "instance")
    if instance not in APPEALS:
        raise InvalidFactError("instance", f"use 'first' (art. 31) or 'second' (art. 32), got {instance!r}")
    param, cites, what = APPEALS[instance]
    deadline = days_deadline(ctx, facts.start, param, plain_days=True)
    return computed([deadline_finding(ctx, "appeal", deadline, what, cites)], deadline, instance=instance)


JUDGMENT_CITES = ("art31_par2", "art32", "lei9784:art59_par1", "lei9784:art59_par2")
SECOND_JUDGMENT = "INT-OLI-SECOND-INSTANCE-JUDGMENT-DEADLINE"


@rule("judgment_deadline", cites=(*JUDGMENT_CITES, *COUNTING_CITES))
def judgment_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """First instance: 30 days from filing (art. 31 § 2º). Second instance: the law is silent (art. 32), so
    INT-OLI-SECOND-INSTANCE-JUDGMENT-DEADLINE picks art. 31 § 2º by analogy, Lei 9.784/1999 art. 59 or none."""
    instance = ctx.require(facts.instance, "instance")
    if instance == "first":
        deadline = days_deadline(ctx, facts.start, "judgment_first_instance_days", plain_days=True)
        finding = deadline_finding(ctx, "judgment", deadline, "Julgamento do recurso", ("art31_par2",))
        return computed([finding], deadline, instance=instance, defined=True)
    if instance != "second":
        raise InvalidFactError(
            "instance", f"use 'first' (art. 31 § 2º) or 'second' (art. 32), got {instance!r}"
        )
    option = ctx.interpretation(SECOND_JUDGMENT)
    if option == "no_deadline":
        return second_instance_undefined(ctx)
    if option == "lei9784_art59":
        return second_instance_lei9784(ctx, facts)
    if facts.extensions:
        raise InvalidFactError("extensions", "art. 31 § 2º (by analogy) provides no extension")
    deadline = days_deadline(ctx, facts.start, "judgment_first_instance_days", plain_days=True)
    what = "Julgamento do recurso em segunda instância (art. 31, § 2º, por analogia)"
    finding = deadline_finding(ctx, "judgment", deadline, what, ("art32", "art31_par2"))
    return computed([finding], deadline, instance=instance, defined=True)


def second_instance_lei9784(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """Lei 9.784/1999 art. 59 § 1º: 30 days; § 2º: one extension for as long, with explicit reasons."""
    extensions = facts.extensions or 0
    if extensions not in (0, 1):
        raise InvalidFactError("extensions", "Lei 9.784/1999 art. 59 § 2º allows a single extension (0 or 1)")
    counting, extend = day_counting(ctx, plain_days=True)
    days = int(ctx.param("judgment_subsidiary_days")) * (1 + extensions)
    deadline = count_days(
        facts.start, days, counting=counting, calendar=ctx.calendar, extend_to_business_day=extend
    )
    cites = ("art32", "lei9784:art59_par1", *(("lei9784:art59_par2",) if extensions else ()))
    extra = ", prorrogado uma vez por igual período" if extensions else ""
    what = f"Julgamento do recurso em segunda instância (Lei 9.784/1999, art. 59{extra})"
    finding = deadline_finding(ctx, "judgment", deadline, what, cites)
    return computed([finding], deadline, instance="second", defined=True, extensions=extensions)


def second_instance_undefined(ctx: Context) -> RuleResult:
    finding = ctx.finding(
        "judgment",
        Status.WARNING,
        "A Lei 5.171/2025 não fixa prazo para julgar o recurso em segunda instância (art. 32)",
        cites=("art32",),
    )
    return RuleResult("computed", [finding], {"end": None, "instance": "second", "defined": False})


@rule("payment_deadline", cites=("art33", "art35", *COUNTING_CITES))
def payment_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """30 dias corridos from the notice of the upheld decision (art. 33); refund if an appeal wins (art. 35)."""
    deadline = days_deadline(ctx, facts.start, "payment_days", plain_days=False)
    refund = ctx.finding(
        "refund_if_appeal_granted",
        Status.INFO,
        "Julgado procedente o recurso, a infração é "
        "cancelada e o valor pago é devolvido por transferência bancária",
        cites=("art35",),
    )
    return computed(
        [deadline_finding(ctx, "payment", deadline, "Recolhimento da multa", ("art33",)), refund], deadline
    )


@rule("permit_validity", cites=("art13", *COUNTING_CITES))
def permit_validity(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """The alvará is issued yearly: 12 months date to date from issue, a missing day → the month's last."""
    months = int(ctx.param("permit_validity_months"))
    deadline = count_months(
        facts.start,
        months,
        rounding=MonthRounding.LAST_DAY_OF_MONTH,
        calendar=ctx.calendar,
        extend_to_business_day=False,
    )
    return computed([deadline_finding(ctx, "validity", deadline, "Validade do alvará", ("art13",))], deadline)


@rule("temporary_vehicle", cites=("art14", *COUNTING_CITES))
def temporary_vehicle(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """Up to 30 days for another vehicle after its inspection (art. 14); the law provides no extension."""
    deadline = count_days(
        facts.start,
        int(ctx.param("temporary_vehicle_max_days")),
        counting=DayCounting.CALENDAR,
        calendar=ctx.calendar,
        extend_to_business_day=False,
    )
    findings = [deadline_finding(ctx, "temporary", deadline, "Autorização temporária", ("art14",))]
    if facts.extensions:
        findings.append(
            ctx.finding(
                "extension",
                Status.NOT_MET,
                "A lei não prevê prorrogação da autorização "
                "temporária; nova autorização depende de nova vistoria",
                cites=("art14",),
            )
        )
    return computed(findings, deadline, extensions_allowed=0)


def returned_ciencia(ctx: Context, facts: NoticeFacts) -> tuple[dt.date, Finding]:
    """A registered letter returned for address change, refusal or bad records still counts (art. 34 II)."""
    if facts.returned_reason not in RETURNED_VALID:
        raise InvalidFactError(
            "returned_reason",
            "a devolução por outro motivo não gera ciência (art. 34, II); "
            "renove a notificação ou publique edital",
        )
    if ctx.interpretation("INT-OLI-RETURNED-NOTICE-DATE") == "posting_date":
        day = ctx.require(facts.sent_on, "sent_on")
    else:
        day = ctx.require(facts.received_on, "received_on")
    finding = ctx.finding(
        "returned_notice",
        Status.INFO,
        "Notificação devolvida por mudança de endereço, recusa ou "
        "inconsistência cadastral: válida para todos os efeitos",
        cites=("art34", "art34_incII"),
    )
    return day, finding


def edital_ciencia(ctx: Context, facts: NoticeFacts) -> tuple[dt.date, Finding]:
    published = ctx.require(facts.published_on, "published_on")
    period = edital_notice_period(
        published,
        int(ctx.param("edital_deemed_notice_days")),
        counting=DayCounting.CALENDAR,
        calendar=ctx.calendar,
    )
    day = period.end
    if ctx.interpretation("INT-OLI-EDITAL-DEEMED-DAY") == "day_after_fifth":
        day += dt.timedelta(days=1)
    finding = ctx.finding(
        "edital",
        Status.INFO,
        f"Edital publicado em {br(published)}: ciência em {br(day)}",
        cites=("art34", "art34_incII"),
    )
    return day, finding


@rule("ciencia_date", cites=("art34", "art34_incI", "art34_incII"))
def ciencia_date(ctx: Context, facts: NoticeFacts) -> RuleResult:
    """When the offender is deemed to know the auto or a decision (art. 34)."""
    if facts.channel == "edital":
        day, finding = edital_ciencia(ctx, facts)
    elif facts.channel == "in_person":
        day = ctx.require(facts.received_on, "received_on")
        finding = ctx.finding(
            "in_person", Status.INFO, f"Ciência pessoal em {br(day)}", cites=("art34", "art34_incI")
        )
    elif facts.channel == "ar" and facts.returned_reason is not None:
        day, finding = returned_ciencia(ctx, facts)
    elif facts.channel == "ar":
        day = ctx.require(facts.received_on, "received_on")
        finding = ctx.finding(
            "ar", Status.INFO, f"Carta registrada (AR) recebida em {br(day)}", cites=("art34", "art34_incII")
        )
    else:
        raise InvalidFactError(
            "channel", "o art. 34 admite ciência pessoal, por carta registrada (AR) ou por edital"
        )
    return RuleResult("computed", [finding], {"ciencia_on": day, "channel": facts.channel})
