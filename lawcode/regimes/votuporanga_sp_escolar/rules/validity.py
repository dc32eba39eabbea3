"""Validity periods: the authorization (12 months, art. 6º), the temporary vehicle (up to 30 days, extendable once
by the same period, art. 8º) and the documents the law asks for.

Whether the issue day is the first day of validity is INT-VOT-VALIDITY-COUNTING. Validity is not a deadline to
act, so an end on a weekend or holiday is not moved.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.context import Context
from lawcode.deadlines import MonthRounding, add_months
from lawcode.decision import RuleResult, Status, eligibility
from lawcode.errors import InvalidFactError
from lawcode.facts import DeadlineFacts, Document
from lawcode.regime import rule

from .common import br, is_current, months_later

ONE_DAY = dt.timedelta(days=1)
# Documents whose acceptance this law governs, with the dispositivo that asks for each.
DOCUMENT_CITES = {
    "criminal_distribution_certificate": "art4_incI_d",
    "crlv": "art4_incII_d",
    "app_insurance": "art4_incII_h",
    "municipal_tax_clearance": "art6_d",
    "comodato_contract": "art4_par1",
    "decharacterization_proof": "art4_par3",
}


def issue_day_counts(ctx: Context) -> bool:
    return ctx.interpretation("INT-VOT-VALIDITY-COUNTING") == "issue_day_counts"


def permit_valid_until(ctx: Context, issued: dt.date) -> dt.date:
    """Last day of an authorization issued on ``issued`` (art. 6º: 12 months)."""
    months = int(ctx.param("permit_validity_months"))
    if issue_day_counts(ctx):
        # 12 full months counting the issue day end the day before the anniversary; a 29/02 anniversary
        # falls on 01/03 (Código Civil art. 132 §3), so the last day is 28/02.
        return add_months(issued, months, rounding=MonthRounding.NEXT_DAY) - ONE_DAY
    return add_months(issued, months, rounding=MonthRounding.LAST_DAY_OF_MONTH)


def days_period_end(ctx: Context, start: dt.date, days: int) -> dt.date:
    """Last day of a period of ``days`` days that starts on ``start``."""
    return start + dt.timedelta(days=days - 1 if issue_day_counts(ctx) else days)


@rule("permit_validity", cites=("art6",))
def permit_validity(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    valid_until = permit_valid_until(ctx, facts.start)
    expired = ctx.as_of > valid_until
    state = f"vencida desde {br(valid_until + ONE_DAY)}" if expired else f"válida até {br(valid_until)}"
    finding = ctx.finding(
        "permit_validity",
        Status.NOT_MET if expired else Status.MET,
        f"Autorização emitida em {br(facts.start)}, {state}; renova-se no vencimento com os "
        "requisitos do art. 6º",
        cites=("art6",),
    )
    return RuleResult("computed", [finding], {"valid_until": valid_until, "expired": expired})


@rule("temporary_vehicle", cites=("art8",))
def temporary_vehicle(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    days = int(ctx.param("temporary_vehicle_days"))
    max_extensions = int(ctx.param("temporary_vehicle_max_extensions"))
    asked = facts.extensions or 0
    if asked < 0:
        raise InvalidFactError("extensions", "the number of extensions cannot be negative")
    granted = min(asked, max_extensions)
    valid_until = days_period_end(ctx, facts.start, days) + dt.timedelta(days=days * granted)
    allowed = asked <= max_extensions
    findings = [
        ctx.finding(
            "temporary_validity",
            Status.INFO,
            f"Autorização temporária de até {days} dias a "
            f"partir de {br(facts.start)}, com {granted} prorrogação(ões): válida até "
            f"{br(valid_until)}",
            cites=("art8",),
        )
    ]
    if not allowed:
        findings.append(
            ctx.finding(
                "temporary_extensions",
                Status.NOT_MET,
                f"Pedidas {asked} prorrogações; a lei admite {max_extensions}, por igual período",
                cites=("art8",),
            )
        )
    result: dict[str, Any] = {"valid_until": valid_until, "allowed": allowed, "extensions_granted": granted}
    return RuleResult("computed", findings, result)


@rule("document_validity", cites=tuple(DOCUMENT_CITES.values()) + ("ctb:art329",))
def document_validity(ctx: Context, facts: Document) -> RuleResult:
    cite = DOCUMENT_CITES.get(facts.kind)
    if cite is None:
        raise InvalidFactError(
            "kind",
            f"Lei 5.722/2015 (Votuporanga) does not ask for {facts.kind!r}; it asks for: "
            + ", ".join(DOCUMENT_CITES),
            problem_pt="a Lei 5.722/2015 (Votuporanga) não exige este documento para o regime",
        )
    if facts.kind == "criminal_distribution_certificate":
        return _criminal_certificate(ctx, facts)
    accepted = is_current(facts, ctx.as_of)
    state = "aceito" if accepted else "recusado (ausente, inválido ou vencido)"
    finding = ctx.finding(
        "document", Status.MET if accepted else Status.NOT_MET, f"Documento {state}", cites=(cite,)
    )
    return eligibility([finding], {"valid_until": facts.expiry_date})


def _criminal_certificate(ctx: Context, facts: Document) -> RuleResult:
    issued = ctx.require(facts.issue_date, "issue_date")
    negative = ctx.require(facts.valid, "valid")
    fresh_until = months_later(issued, 12 * int(ctx.param("criminal_certificate_renewal_years")))
    accepted = negative and ctx.as_of <= fresh_until
    message = (
        f"Certidão emitida em {br(issued)}, renovável a cada 5 anos: aceita até {br(fresh_until)}"
        if negative
        else "Certidão de distribuição criminal não é negativa"
    )
    finding = ctx.finding(
        "document", Status.MET if accepted else Status.NOT_MET, message, cites=("art4_incI_d", "ctb:art329")
    )
    # "Renovável a cada cinco anos" is a validity, not an age window at presentation: no fresh_until.
    return eligibility([finding], {"valid_until": fresh_until})
