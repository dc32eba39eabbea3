"""Penalties (arts. 11 to 16; art. 4º § 5º) computed from the operator's history of final decisions.

The ladder of arts. 12–15 I is a decision table (LADDER): the next step after the highest penalty among the
prior decisions that count as recidivism. Which priors count is interpretation: the window
(INT-VOT-RECIDIVISM-WINDOW), its anchor (INT-VOT-RECIDIVISM-ANCHOR) and "same infraction" vs any
(INT-VOT-RECIDIVISM-SCOPE). A prior counts only if it became final before the new infraction. The catalog says
which infractions skip the ladder: art. 15 II–IX (direct cassação) and art. 4º § 5º (fixed fine of 135 UFM).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from lawcode.blocks.penalties import Ladder
from lawcode.blocks.recidivism import Anchor, CountFrom, RecidivismRule, Scope, recidivism
from lawcode.context import Context
from lawcode.deadlines import count_hours
from lawcode.decision import Finding, RuleResult, Status, format_value_pt
from lawcode.errors import InvalidFactError, LawNotInForceError
from lawcode.facts import InfractionCase, PriorSanction
from lawcode.regime import CatalogEntry, rule

from .common import PUBLISHED_ON, br, day_counting, fine_valuation_date


@dataclass(frozen=True)
class Step:
    """One step of the ladder: the penalty and the dispositivos that impose it."""

    kind: str
    cites: tuple[str, ...]
    fine_parameter: str | None = None
    suspension_parameter: str | None = None


# Index = highest prior step (0 = no prior that counts). Arts. 12, 13, 14 I, 14 II and 15 I.
LADDER = Ladder(
    (
        Step("warning", ("art12", "art11_incI")),
        Step("fine", ("art13", "art11_incII"), fine_parameter="recidivism_fine_ufm"),
        Step("suspension", ("art14_incI", "art11_incIII"), suspension_parameter="first_suspension_days"),
        Step("suspension", ("art14_incII", "art11_incIII"), suspension_parameter="second_suspension_days"),
        Step("cassation", ("art15_incI", "art15", "art11_incIV")),
    )
)
FIXED_FINE = Step("fine", ("art4_par5",), fine_parameter="missed_inspection_fine_ufm")
DIRECT_CASSATION = Step("cassation", ("art15", "art11_incIV", "art15_parun"))
WINDOW_MONTHS = {"twelve_months": 12, "six_months": 6}
PENALTY_PT = {
    "warning": "advertência escrita",
    "fine": "multa",
    "suspension": "suspensão da autorização",
    "cassation": "cassação da autorização",
}
SANCTION_CITES = (
    "art4_par5",
    "art9_incI",
    "art9_incII",
    "art9_incIII",
    "art9_incIV",
    "art9_incV",
    "art10_incI",
    "art10_incII",
    "art10_incIII",
    "art10_incIV",
    "art10_incV",
    "art11",
    "art11_incI",
    "art11_incII",
    "art11_incIII",
    "art11_incIV",
    "art12",
    "art13",
    "art14",
    "art14_incI",
    "art14_incII",
    "art15",
    "art15_incI",
    "art15_incII",
    "art15_incIII",
    "art15_incIV",
    "art15_incV",
    "art15_incVI",
    "art15_incVII",
    "art15_incVIII",
    "art15_incIX",
    "art15_parun",
    "art16",
)


@rule("sanction", cites=SANCTION_CITES)
def sanction(ctx: Context, facts: InfractionCase) -> RuleResult:
    entry = _catalog_entry(ctx, facts)
    infraction = ctx.finding(
        "infraction", Status.INFO, f"{entry.code}: {entry.title}", cites=(entry.cite,), on=facts.date
    )
    findings = [infraction]
    result: dict[str, Any] = {"infraction_code": entry.code}
    if entry.extra.get("curable"):
        cured = _cure(ctx, facts, findings, result)
        if cured:
            return RuleResult("no_penalty", findings, result)
    step, recidivism = _step(ctx, facts, entry)
    result["recidivism"] = recidivism
    findings.append(_penalty(ctx, facts, step, result))
    return RuleResult("penalty", findings, result)


def _catalog_entry(ctx: Context, facts: InfractionCase) -> CatalogEntry:
    entry = ctx.regime.catalog.get(facts.code)
    if entry is None:
        raise InvalidFactError(
            "code",
            f"unknown infraction code {facts.code!r}; use one of the catalog: "
            + ", ".join(ctx.regime.catalog),
        )
    if facts.date < PUBLISHED_ON:
        raise LawNotInForceError(ctx.regime.id, facts.date, PUBLISHED_ON, ctx.regime.main_act.title)
    return entry


def _step(ctx: Context, facts: InfractionCase, entry: CatalogEntry) -> tuple[Step, bool]:
    penalty = entry.extra.get("penalty")
    if penalty == "direct_cassation":
        return Step("cassation", (entry.cite, *DIRECT_CASSATION.cites)), False
    if penalty == "fixed_fine":
        return FIXED_FINE, False
    counted = recidivism(
        facts.operator.history, facts.code, facts.date, _recidivism_rule(ctx), at=facts.occurred_at
    ).priors
    highest = max((_rank(prior) for prior in counted), default=0)
    return LADDER.next_after(highest), highest > 0


def _rank(prior: PriorSanction) -> int:
    """Ladder position of a prior decision: its most severe penalty."""
    if "cassation" in prior.penalties:
        return 4
    if "suspension" in prior.penalties:
        return 4 if (prior.suspension_days or 0) >= 60 else 3
    if "fine" in prior.penalties:
        return 2
    return 1 if "warning" in prior.penalties else 0


def _recidivism_rule(ctx: Context) -> RecidivismRule:
    """Which final priors count: scope, window and anchor as the interpretations read arts. 12 to 15."""
    specific = ctx.interpretation("INT-VOT-RECIDIVISM-SCOPE") == "same_infraction"
    window = WINDOW_MONTHS.get(ctx.interpretation("INT-VOT-RECIDIVISM-WINDOW"))
    anchor = Anchor.PRIOR_FINAL
    if window is not None and ctx.interpretation("INT-VOT-RECIDIVISM-ANCHOR") == "prior_infraction_date":
        anchor = Anchor.PRIOR_INFRACTION
    return RecidivismRule(Scope.SPECIFIC if specific else Scope.GENERIC, window, anchor, CountFrom.FIRST)


def _penalty(ctx: Context, facts: InfractionCase, step: Step, result: dict[str, Any]) -> Finding:
    result["penalty_kind"] = step.kind
    result["fine_quantity"] = None
    result["suspension_days"] = None
    result["suspension_start"] = result["suspension_end"] = None
    penalties: list[dict[str, Any]] = []
    cites = list(step.cites)
    fine_parameter = step.fine_parameter
    if step.kind == "suspension" and ctx.interpretation("INT-VOT-CUMULATIVE-FINE") == "fine_with_suspension":
        fine_parameter = "recidivism_fine_ufm"
        cites += ["art11", "art13"]
    if step.suspension_parameter is not None:
        days = int(ctx.param_on(step.suspension_parameter, facts.date))
        start, end = _suspension_period(ctx, facts, days)
        result.update(suspension_days=days, suspension_start=start, suspension_end=end)
        penalties.append({"kind": "suspension", "days": days, "start": start, "end": end})
    if fine_parameter is not None:
        penalties.append(_fine(ctx, facts, fine_parameter, result))
    if step.kind in ("warning", "cassation"):
        penalties.insert(0, {"kind": step.kind})
    result["penalties"] = penalties
    return ctx.finding(
        "penalty",
        Status.INFO,
        _penalty_message(step, result),
        cites=tuple(dict.fromkeys(cites)),
        on=facts.date,
    )


def _suspension_period(
    ctx: Context, facts: InfractionCase, days: int
) -> tuple[dt.date | None, dt.date | None]:
    """The suspension runs ``days`` days, both ends included, from the day INT-VOT-SUSPENSION-START picks
    (the law gives only the days, art. 14); no dates until the decision is final."""
    if facts.decided_final_on is None:
        return None, None
    start = facts.decided_final_on
    if ctx.interpretation("INT-VOT-SUSPENSION-START") == "day_after_final_decision":
        start += dt.timedelta(days=1)
    return start, start + dt.timedelta(days=days - 1)


def _penalty_message(step: Step, result: dict[str, Any]) -> str:
    parts = [PENALTY_PT[step.kind]]
    if result["suspension_days"]:
        parts[0] += f" por {result['suspension_days']} dias"
        if result["suspension_start"] is not None:
            parts[0] += f", de {br(result['suspension_start'])} a {br(result['suspension_end'])}"
    if result["fine_quantity"] is not None and step.kind != "fine":
        parts.append(f"multa de {result['fine_quantity']} UFM")
    if step.kind == "fine":
        parts[0] += f" de {result['fine_quantity']} UFM"
    reason = "reincidência" if result.get("recidivism") else "infração"
    return (
        f"Penalidade pela {reason}: "
        + " e ".join(parts)
        + (f" ({format_value_pt(result['fine_brl'], 'brl')})" if result.get("fine_brl") is not None else "")
        + _value_pending(result)
    )


def _value_pending(result: dict[str, Any]) -> str:
    """A fine whose UFM has no value yet on its valuation date: it stands, its amount in reais is fixed later."""
    if (
        result.get("fine_quantity") is None
        or result.get("fine_brl") is not None
        or not result.get("valued_on")
    ):
        return ""
    return f" (valor em reais a apurar: a UFM de {result['valued_on'].year} ainda não tem valor cadastrado)"


def _fine(ctx: Context, facts: InfractionCase, parameter: str, result: dict[str, Any]) -> dict[str, Any]:
    quantity = Decimal(ctx.param_on(parameter, facts.date))
    valued_on = _valuation_date(ctx, facts)
    brl = ctx.to_brl_or_wait(quantity, "ufm", valued_on, may_wait=facts.fine_value_may_wait)
    result.update({"fine_quantity": quantity, "fine_unit": "ufm", "fine_brl": brl, "valued_on": valued_on})
    return {"kind": "fine", "quantity": quantity, "unit": "ufm", "brl": brl}


def _valuation_date(ctx: Context, facts: InfractionCase) -> dt.date:
    return fine_valuation_date(
        ctx,
        infraction_date=facts.date,
        auto_date=facts.auto_date,
        decided_final_on=facts.decided_final_on,
        guide_issue_date=facts.guide_issue_date,
    )


def _cure(ctx: Context, facts: InfractionCase, findings: list[Finding], result: dict[str, Any]) -> bool:
    """Art. 16: a non-safety irregularity is first notified to be regularized within 24 hours.

    Returns True when no penalty applies (not yet notified, or regularized in time).
    """
    if ctx.interpretation("INT-VOT-CURE-EFFECT") == "notice_and_penalty":
        message = "A notificação para regularizar em 24 horas não afasta a penalidade (leitura adotada)"
        findings.append(ctx.finding("cure_notice", Status.INFO, message, cites=("art16",)))
        return False
    if facts.cure_notified_at is None:
        message = (
            "Irregularidade sem risco à segurança: o autorizado deve antes ser notificado para regularizar"
        )
        counterfactual = "a penalidade só cabe se, notificado, não regularizar em 24 horas"
        findings.append(
            ctx.finding(
                "cure_notice", Status.NOT_MET, message, cites=("art16",), counterfactual=counterfactual
            )
        )
        return True
    return _cured_in_time(ctx, facts, facts.cure_notified_at, findings, result)


def _cured_in_time(
    ctx: Context,
    facts: InfractionCase,
    notified_at: dt.datetime,
    findings: list[Finding],
    result: dict[str, Any],
) -> bool:
    _, extend = day_counting(ctx)
    hours = int(ctx.param_on("cure_hours", facts.date))
    deadline = count_hours(notified_at, hours, calendar=ctx.calendar, extend_to_business_day=extend)
    result["cure_deadline"] = deadline.end
    timely = facts.regularized_at is not None and deadline.is_timely(facts.regularized_at)
    state = "Regularizado" if timely else "Não regularizado"
    message = f"{state} até {br(deadline.end.date())} às {deadline.end:%H:%M}"
    findings.append(ctx.finding("cure", Status.MET if timely else Status.NOT_MET, message, cites=("art16",)))
    return timely
