"""Who may hold a taxi permit and who may drive one (arts. 2º, 3º, 4º § 3º, 8º to 11).

Only a natural person, autonomous professional driver, resident in the municipality (art. 2º), with the
documents of art. 3º, exploring a single taxi (art. 9º). Drivers: the holder and one auxiliary in a
collaboration regime (art. 10), both registered in the municipal register of taxi drivers (art. 8º). A former
holder who transferred the permit to a third party is barred for 2 years (art. 4º § 3º), recorded as a ban.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.blocks.quotas import within
from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.facts import Driver, Operator, Person
from lawcode.regime import rule

from .common import br
from .people import PERSON_CITES, person_findings

BAN_CITES = ("art4_par3",)
OPERATOR_CITES = (*PERSON_CITES, "art9", *BAN_CITES)
DRIVER_CITES = (*PERSON_CITES, "art10", "art10_par2", "art10_par3", "art10_par4")
# Art. 10 § 2º: a change of auxiliary for these reasons does not count against the 2 a year.
UNCOUNTED_CHANGES = {
    "resignation": "pedido de demissão do auxiliar",
    "death": "falecimento do auxiliar",
    "force_majeure": "força maior não provocada pelo titular",
}


@rule("operator_registration", cites=OPERATOR_CITES)
def operator_registration(ctx: Context, facts: Operator) -> RuleResult:
    findings = operator_findings(ctx, facts, adding=1)
    return eligibility(findings, {"taxis_held": facts.active_permits})


def operator_findings(ctx: Context, operator: Operator, *, adding: int) -> list[Finding]:
    """Art. 2º (natural person), the personal requirements, art. 9º (one taxi) and any running ban."""
    kind = ctx.finding(
        "natural_person",
        Status.MET if operator.kind == "PF" else Status.NOT_MET,
        "Pessoa física" if operator.kind == "PF" else "Empresa não pode ser permissionária de táxi",
        cites=("art2",),
        counterfactual=None
        if operator.kind == "PF"
        else "só o motorista profissional autônomo obtém o alvará",
    )
    if operator.kind != "PF":
        return [kind]
    person: Person = ctx.require(operator.person, "person")
    return [
        kind,
        *person_findings(ctx, person, "person"),
        one_taxi_finding(ctx, operator, adding=adding),
        ban_finding(ctx, operator),
    ]


def one_taxi_finding(ctx: Context, operator: Operator, *, adding: int) -> Finding:
    quota = within(int(ctx.param("taxis_per_driver")), operator.active_permits, adding=adding)
    return ctx.finding(
        "one_taxi",
        Status.MET if quota.ok else Status.NOT_MET,
        quota.describe_pt("Táxis explorados pelo motorista")
        + "; o permissionário não pode ter outra atividade rentável (verificado no processo)",
        cites=("art9",),
        counterfactual=None if quota.ok else "o motorista autônomo só pode explorar 1 táxi",
    )


def ban_finding(ctx: Context, operator: Operator) -> Finding:
    """not_met while a ban runs (the former holder who transferred the permit to a third party, art. 4º § 3º)."""
    running = [b for b in operator.bans if b.start <= ctx.as_of <= b.until]
    if not running:
        return ctx.finding("ban", Status.MET, "Sem impedimento de exercer a atividade", cites=BAN_CITES)
    ban = max(running, key=lambda b: b.until)
    return ctx.finding(
        "ban",
        Status.NOT_MET,
        f"Impedido de exercer a atividade como titular de {br(ban.start)} até {br(ban.until)}",
        cites=("art4_par3",),
        counterfactual=f"poderá requerer a partir de {br(ban.until + dt.timedelta(days=1))}",
        data={"until": ban.until, "reason": ban.reason_code},
    )


@rule("ban_status", cites=BAN_CITES)
def ban_status(ctx: Context, facts: Operator) -> RuleResult:
    finding = ban_finding(ctx, facts)
    banned = finding.status is Status.NOT_MET
    result: dict[str, Any] = {
        "banned": banned,
        "until": finding.data.get("until"),
        "reason": finding.data.get("reason"),
    }
    return RuleResult("banned" if banned else "not_banned", [finding], result)


@rule("driver_registration", cites=DRIVER_CITES)
def driver_registration(ctx: Context, facts: Driver) -> RuleResult:
    """Art. 8º: only registered resident drivers drive a taxi: the holder, or one auxiliary (art. 10)."""
    if facts.role not in ("principal", "auxiliary"):
        finding = ctx.finding(
            "role",
            Status.NOT_MET,
            "O táxi só pode ser dirigido pelo permissionário ou por 1 auxiliar em regime de colaboração",
            cites=("art8", "art10"),
        )
        return eligibility([finding], {"role": facts.role})
    role = ctx.finding(
        "role",
        Status.INFO,
        "Auxiliar em regime de colaboração: as mesmas exigências feitas aos permissionários"
        if facts.role == "auxiliary"
        else "Permissionário (motorista profissional autônomo)",
        cites=("art10", "art10_par3", "art10_par4") if facts.role == "auxiliary" else ("art8",),
    )
    findings = [role, *person_findings(ctx, facts.person, "person")]
    if facts.role == "auxiliary":
        findings.append(_auxiliary_change(ctx, facts))
    return eligibility(findings, {"role": facts.role})


def _auxiliary_change(ctx: Context, facts: Driver) -> Finding:
    """Art. 10 § 2º: up to 2 authorizations a year to change the auxiliary, beyond the uncounted reasons."""
    reason = facts.extra.get("auxiliary_change_reason")
    if reason is None:
        return ctx.finding(
            "auxiliary_change",
            Status.INFO,
            "Primeiro auxiliar do permissionário (sem troca a contar)",
            cites=("art10_par2",),
        )
    if reason in UNCOUNTED_CHANGES:
        return ctx.finding(
            "auxiliary_change",
            Status.MET,
            f"Troca por {UNCOUNTED_CHANGES[str(reason)]}: não conta no limite anual, comprovada por documentos e "
            "decidida pelo Departamento de Transportes Públicos",
            cites=("art10_par2",),
        )
    done = int(
        ctx.require(
            facts.extra.get("auxiliary_changes_this_year"), "driver.extra.auxiliary_changes_this_year"
        )
    )
    quota = within(int(ctx.param("auxiliary_changes_per_year")), done)
    return ctx.finding(
        "auxiliary_change",
        Status.MET if quota.ok else Status.NOT_MET,
        quota.describe_pt("Trocas de auxiliar no ano"),
        cites=("art10_par2",),
        counterfactual=None if quota.ok else "a lei autoriza até 2 trocas de auxiliar por ano",
    )
