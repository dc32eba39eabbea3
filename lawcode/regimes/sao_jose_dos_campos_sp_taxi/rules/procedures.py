"""Deadlines and procedure questions (arts. 22 § 1º, 23 XIII, 24 and § 3º).

- Ordinary penalties: two instances, the Diretor do Departamento de Transportes Públicos, then the Secretário
  de Transportes (art. 22 § 1º); the law gives no deadline, so Lei 9.784/1999 applies by
  INT-SJC-ORDINARY-APPEAL-DEADLINE.
- Summary cassação: appeal within 10 days (art. 24).
- Clandestine transport (art. 24 § 3º): defence in 15 days, final allegations in 10, judgment in the 30 days
  after, appeal in 10 days of ciência, final decision in 20; the whole within 90 days of the opening (VI).
- Repairs (art. 23 XIII): at least 24 hours, extendable by 10, 20 and 30 days (INT-SJC-REPAIR-EXTENSIONS).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.blocks.chains import Chain, ChainStep, chain
from lawcode.context import Context
from lawcode.deadlines import DayCounting, Deadline, HoursDeadline, count_days, count_hours
from lawcode.decision import Finding, RuleResult, Status, format_value_pt
from lawcode.errors import InvalidFactError
from lawcode.facts import DeadlineFacts, FineFacts, NoticeFacts
from lawcode.regime import rule

from .common import br, day_counting
from .fines import FINE_UNIT, FINE_UPDATE_CITES, reindexed

COUNTING_CITES = ("lei9784:art66", "lei9784:art66_par1", "lei9784:art66_par2")
INSTANCE_CITES = ("art22_par1",)


def _days(ctx: Context, start: dt.date, days: int) -> Deadline:
    counting, extend = day_counting(ctx)
    return count_days(start, days, counting=counting, calendar=ctx.calendar, extend_to_business_day=extend)


def _counting_cites(deadline: Deadline) -> tuple[str, ...]:
    return tuple(c for c in deadline.citations if c in COUNTING_CITES)


def _deadline_result(
    ctx: Context, code: str, label: str, start: dt.date, days: int, cites: tuple[str, ...], instance: str
) -> RuleResult:
    deadline = _days(ctx, start, days)
    finding = ctx.finding(
        code,
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


def _not_provided(ctx: Context, code: str, instance: str, what: str) -> RuleResult:
    finding = ctx.finding(
        code,
        Status.INFO,
        f"{what}: a lei não fixa prazo; nenhum prazo é calculado (leitura adotada)",
        cites=INSTANCE_CITES,
    )
    return RuleResult("computed", [finding], {"instance": instance, "end": None, "days": None})


# Appeal-type deadlines the law fixes: instance → (parameter, label, dispositivos).
FIXED_APPEALS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "cassation": ("cassation_appeal_days", "Recurso contra a cassação sumária", ("art24",)),
    "clandestine_defense": (
        "clandestine_defense_days",
        "Defesa escrita para liberar o veículo apreendido",
        ("art24_par3",),
    ),
    "clandestine_final_allegations": (
        "clandestine_final_allegations_days",
        "Alegações finais, encerrada a instrução",
        ("art24_par3_incIV",),
    ),
    "clandestine_appeal": (
        "clandestine_appeal_days",
        "Recurso à autoridade superior contra a decisão",
        ("art24_par3_incV",),
    ),
}
ORDINARY = {
    "first": "Defesa ao Diretor do Departamento de Transportes Públicos (1ª instância)",
    "second": "Recurso ao Secretário de Transportes (2ª instância)",
}
APPEAL_CITES = (
    *INSTANCE_CITES,
    "lei9784:art59",
    "art24",
    "art24_par3",
    "art24_par3_incIV",
    "art24_par3_incV",
    *COUNTING_CITES,
)


@rule("appeal_deadline", cites=APPEAL_CITES)
def appeal_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    instance = facts.instance or "first"
    if instance in FIXED_APPEALS:
        parameter, label, cites = FIXED_APPEALS[instance]
        return _deadline_result(
            ctx, "appeal_deadline", label, facts.start, int(ctx.param(parameter)), cites, instance
        )
    if instance not in ORDINARY:
        raise InvalidFactError(
            "instance", f"unknown instance {instance!r}; use one of: {', '.join([*ORDINARY, *FIXED_APPEALS])}"
        )
    if ctx.interpretation("INT-SJC-ORDINARY-APPEAL-DEADLINE") == "not_provided":
        return _not_provided(ctx, "appeal_deadline", instance, ORDINARY[instance])
    days = int(ctx.param("lei9784_appeal_days"))
    return _deadline_result(
        ctx,
        "appeal_deadline",
        ORDINARY[instance],
        facts.start,
        days,
        ("art22_par1", "lei9784:art59"),
        instance,
    )


JUDGMENT_CITES = (
    *INSTANCE_CITES,
    "lei9784:art59_par1",
    "lei9784:art59_par2",
    "art24_par3_incIV",
    "art24_par3_incV",
    "art24_par3_incVI",
    "art24_par3",
    *COUNTING_CITES,
)
CLANDESTINE_STEPS = (
    ("defense", "Defesa escrita", "clandestine_defense_days"),
    (
        "final_allegations",
        "Alegações finais (sem audiência de instrução)",
        "clandestine_final_allegations_days",
    ),
    ("judgment", "Julgamento pelo Secretário de Transportes", "clandestine_judgment_days"),
    (
        "appeal",
        "Recurso à autoridade superior (contado da ciência, aqui suposta no dia do julgamento)",
        "clandestine_appeal_days",
    ),
    ("final_decision", "Decisão definitiva da autoridade superior", "clandestine_appeal_judgment_days"),
)


@rule("judgment_deadline", cites=JUDGMENT_CITES)
def judgment_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    instance = facts.instance or "first"
    if instance == "clandestine_process":
        return _clandestine_chain(ctx, facts.start)
    if instance == "clandestine":
        days = int(ctx.param("clandestine_judgment_days"))
        label = "Julgamento pelo Secretário de Transportes, após as alegações finais"
        return _deadline_result(
            ctx, "judgment_deadline", label, facts.start, days, ("art24_par3_incIV",), instance
        )
    if instance == "clandestine_appeal":
        days = int(ctx.param("clandestine_appeal_judgment_days"))
        label = "Decisão definitiva do recurso pela autoridade superior"
        return _deadline_result(
            ctx, "judgment_deadline", label, facts.start, days, ("art24_par3_incV",), instance
        )
    if instance not in ORDINARY:
        raise InvalidFactError(
            "instance",
            f"unknown instance {instance!r}; use first, second, clandestine, clandestine_appeal or clandestine_process",
        )
    judge = (
        "Diretor do Departamento de Transportes Públicos"
        if instance == "first"
        else "Secretário de Transportes"
    )
    if ctx.interpretation("INT-SJC-ORDINARY-APPEAL-DEADLINE") == "not_provided":
        return _not_provided(ctx, "judgment_deadline", instance, f"Julgamento pelo {judge}")
    days = int(ctx.param("lei9784_judgment_days"))
    result = _deadline_result(
        ctx,
        "judgment_deadline",
        f"Julgamento pelo {judge} (prorrogável uma vez por igual período, justificadamente)",
        facts.start,
        days,
        ("art22_par1", "lei9784:art59_par1", "lei9784:art59_par2"),
        instance,
    )
    return result


def _clandestine_chain(ctx: Context, opened_on: dt.date) -> RuleResult:
    """Art. 24 § 3º I–VI as a chain from the opening of the process, bounded by the 90-day ceiling."""
    counting, extend = day_counting(ctx)
    steps = [ChainStep(key, label, int(ctx.param(parameter))) for key, label, parameter in CLANDESTINE_STEPS]
    planned = chain(
        opened_on,
        steps,
        acted={},
        counting=counting,
        calendar=ctx.calendar,
        extend_to_business_day=extend,
        ceiling_days=int(ctx.param("clandestine_ceiling_days")),
    )
    assert planned.ceiling is not None  # ceiling_days was given
    findings = [
        ctx.finding(
            "clandestine_chain",
            Status.INFO,
            f"Processo aberto em {br(opened_on)}: {planned.describe_pt()}",
            cites=("art24_par3", "art24_par3_incIV", "art24_par3_incV", "art24_par3_incVI"),
        ),
        _ceiling_finding(ctx, planned.ceiling.end, planned.exceeds_ceiling),
    ]
    result: dict[str, Any] = {
        "instance": "clandestine_process",
        "start": opened_on,
        "end": planned.ceiling.end,
        "ceiling": planned.ceiling.end,
        "steps": [
            {"key": x.key, "label": x.label_pt, "end": x.deadline.end, "arithmetic": list(x.deadline.steps)}
            for x in planned.links
        ],
        "exceeds_ceiling": planned.exceeds_ceiling,
        "overdue": ctx.as_of > planned.ceiling.end,
    }
    return RuleResult("computed", findings, result)


def _ceiling_finding(ctx: Context, ceiling: dt.date, exceeds: bool) -> Finding:
    if ctx.as_of <= ceiling:
        note = (
            " (os prazos das partes, somados, passam do teto: a Administração deve abreviar os seus)"
            if exceeds
            else ""
        )
        return ctx.finding(
            "clandestine_ceiling",
            Status.INFO,
            f"O processo deve estar concluído até {br(ceiling)}, 90 dias da abertura{note}",
            cites=("art24_par3_incVI",),
        )
    if ctx.interpretation("INT-SJC-CLANDESTINE-CEILING") == "release_vehicle":
        return ctx.finding(
            "clandestine_ceiling",
            Status.NOT_MET,
            f"Prazo máximo de conclusão vencido em {br(ceiling)}: o veículo apreendido deve ser liberado (leitura "
            "adotada)",
            cites=("art24_par3_incVI",),
        )
    return ctx.finding(
        "clandestine_ceiling",
        Status.WARNING,
        f"Prazo máximo de conclusão vencido em {br(ceiling)}: o atraso não anula o processo, mas deve ser "
        "justificado nos autos (leitura adotada)",
        cites=("art24_par3_incVI",),
    )


@rule("cure_deadline", cites=("art23_incXIII", "codigo_civil:art132_par4", *COUNTING_CITES))
def cure_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """Art. 23 XIII: repairs within the notice's 24 hours at least, extendable by 10, 20 and 30 days."""
    notified_at = ctx.require(facts.start_time, "start_time")
    counting, extend = day_counting(ctx)
    hours = int(ctx.param("repair_notice_hours"))
    base = count_hours(notified_at, hours, calendar=ctx.calendar, extend_to_business_day=extend)
    tiers = tuple(int(d) for d in ctx.param("repair_extension_days"))
    asked = facts.extensions or 0
    if asked < 0:
        raise InvalidFactError("extensions", "the number of extensions cannot be negative")
    findings = [_repair_notice_finding(ctx, hours, base)]
    result: dict[str, Any] = {"end": base.end, "hours": hours, "extensions": 0, "steps": list(base.steps)}
    if asked > len(tiers):
        findings.append(_too_many_extensions_finding(ctx, asked, tiers))
    elif asked:
        extended = _repair_extensions(ctx, base, tiers, asked, counting, extend)
        findings.append(
            ctx.finding(
                "repair_extensions",
                Status.INFO,
                f"Com {asked} prorrogação(ões): {extended.describe_pt()}",
                cites=("art23_incXIII",) + _counting_cites(extended.links[-1].deadline),
            )
        )
        result.update(
            end=dt.datetime.combine(extended.last_end, base.end.timetz()),
            extensions=asked,
            steps=[*base.steps, *(s for x in extended.links for s in x.deadline.steps)],
        )
    return RuleResult("computed", findings, result)


def _repair_notice_finding(ctx: Context, hours: int, base: HoursDeadline) -> Finding:
    return ctx.finding(
        "repair_notice",
        Status.INFO,
        f"Reparos exigidos pela fiscalização: {hours} horas da notificação, até {br(base.end.date())} às "
        f"{base.end:%H:%M}",
        cites=("art23_incXIII", "codigo_civil:art132_par4"),
    )


def _too_many_extensions_finding(ctx: Context, asked: int, tiers: tuple[int, ...]) -> Finding:
    return ctx.finding(
        "repair_extensions",
        Status.NOT_MET,
        f"Pedidas {asked} prorrogações; a lei prevê prazos subsequentes de {', '.join(map(str, tiers))} dias",
        cites=("art23_incXIII",),
    )


def _repair_extensions(
    ctx: Context,
    base: HoursDeadline,
    tiers: tuple[int, ...],
    asked: int,
    counting: DayCounting,
    extend: bool,
) -> Chain:
    """The extensions chained after the notice's hours: the tiers up to the one asked for when they add up
    (INT-SJC-REPAIR-EXTENSIONS), otherwise only the asked tier."""
    successive = ctx.interpretation("INT-SJC-REPAIR-EXTENSIONS") == "successive"
    days = tiers[:asked] if successive else (tiers[asked - 1],)
    steps = [ChainStep(f"extension_{i + 1}", f"Prorrogação de {d} dias", d) for i, d in enumerate(days)]
    return chain(
        base.end.date(),
        steps,
        acted={},
        counting=counting,
        calendar=ctx.calendar,
        extend_to_business_day=extend,
        ceiling_days=None,
    )


@rule("ciencia_date", cites=("art24_par3_incV", "art22_par1"))
def ciencia_date(ctx: Context, facts: NoticeFacts) -> RuleResult:
    """Ciência in person or by AR (art. 24 § 3º V, extended to every notice by INT-SJC-NOTICE)."""
    electronic_ok = ctx.interpretation("INT-SJC-NOTICE") == "also_electronic"
    accepted = facts.channel in ("in_person", "ar") or (facts.channel == "electronic" and electronic_ok)
    if not accepted or facts.returned_reason:
        finding = ctx.finding(
            "ciencia",
            Status.WARNING,
            "A lei prevê a ciência pessoalmente ou por AR e não prevê ciência ficta (edital, carta devolvida"
            + ("" if electronic_ok else ", meio eletrônico")
            + "); notifique pessoalmente ou por AR",
            cites=("art24_par3_incV",),
        )
        return RuleResult("computed", [finding], {"ciencia_on": None, "appeal_counts_from": None})
    received = ctx.require(facts.received_on, "received_on")
    finding = ctx.finding(
        "ciencia",
        Status.INFO,
        f"Ciência em {br(received)}, data do recebimento; o prazo de defesa ou recurso conta a partir dela",
        cites=("art24_par3_incV",),
    )
    return RuleResult("computed", [finding], {"ciencia_on": received, "appeal_counts_from": received})


@rule("fine_amount", cites=(*FINE_UPDATE_CITES, "art23", "art24_par2"))
def fine_amount(ctx: Context, facts: FineFacts) -> RuleResult:
    """A fine of the law's nominal reais, updated every 1st January up to the valuation date."""
    if facts.unit != FINE_UNIT:
        raise InvalidFactError(
            "unit",
            f"Lei 8.698/2012 fixes its fines in reais of 2012 updated yearly ({FINE_UNIT}), not {facts.unit!r}",
        )
    valued_on = _valuation_date(ctx, facts)
    valued = reindexed(ctx, facts.quantity, valued_on)
    finding = ctx.finding(
        "fine_amount",
        Status.INFO,
        f"{format_value_pt(facts.quantity, 'brl')} (valor nominal da lei, de 2012) em {br(valued_on)}: "
        f"{format_value_pt(valued.brl, 'brl')}; {valued.describe_pt()}",
        cites=FINE_UPDATE_CITES,
    )
    result = {
        "brl": valued.brl,
        "quantity": facts.quantity,
        "valued_on": valued_on,
        "update_factor": valued.factor,
        "unit_value": valued.factor,
    }
    return RuleResult("computed", [finding], result)


def _valuation_date(ctx: Context, facts: FineFacts) -> dt.date:
    option = ctx.interpretation("INT-SJC-FINE-VALUATION-DATE")
    if option == "auto_date":
        return ctx.require(facts.auto_date, "auto_date")
    if option == "guide_issue_date":
        return ctx.require(facts.guide_issue_date, "guide_issue_date")
    return facts.infraction_date
