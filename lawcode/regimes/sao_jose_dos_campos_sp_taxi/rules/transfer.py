"""Transfer of the Alvará de Permissão (art. 4º), vehicle replacements (art. 14 § 2º) and the retired holder's
auxiliary (art. 11): questions the common facts cannot state, declared in facts.yaml and asked here.

A transfer is a permit application by the new holder (``application.extra.transfer_reason``): the permit
already exists, so the fleet cap (art. 19) does not apply; the new holder meets art. 3º's requirements, except
that an heir by death may present the CNH within 60 days of the opening of the process (§ 1º). After a transfer
to a third party, the former holder is barred for 2 years (§ 3º) and the permit cannot go to a third party
again for 3 years (§ 4º).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.blocks.limits import Bound, anniversary, minimum_years
from lawcode.blocks.quotas import within
from lawcode.context import Context
from lawcode.deadlines import count_days
from lawcode.decision import Finding, Status
from lawcode.facts import PermitApplication

from .common import br, day_counting

TRANSFER_CITES = (
    "art4",
    "art4_incI",
    "art4_incII",
    "art4_incIII",
    "art4_par1",
    "art4_par2",
    "art4_par3",
    "art4_par4",
    "art4_par5",
    "art5",
    "art14_par1",
)
REPLACEMENT_CITES = ("art14_par2", "art14_par2_incI", "art14_par2_incII")
ALLOWED_RELATIONSHIPS = {
    "death": ("spouse", "heir"),
    "invalidity": ("spouse", "heir", "permanent_auxiliary"),
    "third_party": ("third_party", "spouse", "heir", "permanent_auxiliary"),
}
RELATIONSHIP_PT = {
    "spouse": "cônjuge",
    "heir": "herdeiro necessário",
    "permanent_auxiliary": "auxiliar permanente",
    "third_party": "terceiro",
}


def transfer_reason(facts: PermitApplication) -> str | None:
    reason = facts.extra.get("transfer_reason")
    return str(reason) if reason else None


def transfer_findings(ctx: Context, facts: PermitApplication, result: dict[str, Any]) -> list[Finding]:
    reason = ctx.require(transfer_reason(facts), "application.extra.transfer_reason")
    relationship = str(
        ctx.require(facts.extra.get("transferee_relationship"), "application.extra.transferee_relationship")
    )
    findings = [_recipient_finding(ctx, reason, relationship), _not_vacancy_finding(ctx)]
    if reason == "death" and relationship == "spouse":
        findings.append(
            ctx.finding(
                "spouse_auxiliary",
                Status.INFO,
                "O cônjuge sobrevivente pode valer-se de motorista auxiliar permanente",
                cites=("art4_par5",),
            )
        )
    if reason == "invalidity":
        findings.append(_invalidity_request(ctx, facts))
    if reason == "third_party":
        findings += _third_party(ctx, facts, result)
    return findings


def _recipient_finding(ctx: Context, reason: str, relationship: str) -> Finding:
    """Art. 4º I–III: who may receive the permit depends on why it is transferred."""
    allowed = ALLOWED_RELATIONSHIPS[reason]
    ok = relationship in allowed
    inciso = {"death": "art4_incI", "invalidity": "art4_incII", "third_party": "art4_incIII"}[reason]
    return ctx.finding(
        "transfer_recipient",
        Status.MET if ok else Status.NOT_MET,
        f"Transferência a {RELATIONSHIP_PT[relationship]}"
        + ("" if ok else f": neste caso a lei só admite {', '.join(RELATIONSHIP_PT[r] for r in allowed)}"),
        cites=("art4", inciso),
    )


def _not_vacancy_finding(ctx: Context) -> Finding:
    return ctx.finding(
        "transfer_not_vacancy",
        Status.INFO,
        "Transferência prevista no art. 4º: a permissão não é revogada por vacância nem volta ao Poder "
        "Executivo, e o novo titular atende às exigências do art. 3º",
        cites=("art5", "art4"),
    )


def heir_cnh_grace(ctx: Context, facts: PermitApplication) -> Finding | None:
    """Art. 4º § 1º: on death, the heir may present the CNH within 60 days of the opening of the process."""
    if transfer_reason(facts) != "death":
        return None
    opened = ctx.require(
        facts.extra.get("transfer_process_opened_on"), "application.extra.transfer_process_opened_on"
    )
    counting, extend = day_counting(ctx)
    deadline = count_days(
        opened,
        int(ctx.param("heir_cnh_days")),
        counting=counting,
        calendar=ctx.calendar,
        extend_to_business_day=extend,
    )
    person = facts.operator.person
    if person is not None and person.cnh is not None:
        return None
    within_grace = ctx.as_of <= deadline.end
    return ctx.finding(
        "heir_cnh",
        Status.WARNING if within_grace else Status.NOT_MET,
        f"Herdeiro sem CNH: pode apresentá-la até {br(deadline.end)}, valendo-se de motorista auxiliar"
        if within_grace
        else f"Prazo para o herdeiro apresentar a CNH vencido em {br(deadline.end)}",
        cites=("art4_par1", "art4_incI"),
    )


def _invalidity_request(ctx: Context, facts: PermitApplication) -> Finding:
    declared = ctx.require(
        facts.extra.get("invalidity_declared_on"), "application.extra.invalidity_declared_on"
    )
    filed = facts.filed_on or ctx.as_of
    counting, extend = day_counting(ctx)
    deadline = count_days(
        declared,
        int(ctx.param("invalidity_transfer_request_days")),
        counting=counting,
        calendar=ctx.calendar,
        extend_to_business_day=extend,
    )
    timely = filed <= deadline.end
    return ctx.finding(
        "invalidity_request",
        Status.MET if timely else Status.NOT_MET,
        f"Pedido de transferência por invalidez em {br(filed)}; prazo de 60 dias até {br(deadline.end)}",
        cites=("art4_par2",),
    )


def _third_party(ctx: Context, facts: PermitApplication, result: dict[str, Any]) -> list[Finding]:
    since = ctx.require(
        facts.extra.get("transferor_active_since"), "application.extra.transferor_active_since"
    )
    activity = minimum_years(
        since, ctx.as_of, int(ctx.param("transfer_min_activity_years")), bound=Bound.INCLUSIVE
    )
    findings = [
        ctx.finding(
            "transferor_activity",
            Status.MET if activity.ok else Status.NOT_MET,
            activity.describe_pt("Atividade do permissionário que transfere"),
            cites=("art4_incIII",),
            counterfactual=None if activity.ok else f"poderá transferir a partir de {br(activity.met_from)}",
        )
    ]
    last = facts.extra.get("last_transfer_to_third_party_on")
    if last is not None:
        wait = minimum_years(last, ctx.as_of, int(ctx.param("retransfer_min_years")), bound=Bound.INCLUSIVE)
        findings.append(
            ctx.finding(
                "retransfer",
                Status.MET if wait.ok else Status.NOT_MET,
                f"Alvará transferido a terceiro em {br(last)}: nova transferência entre vivos a partir de "
                f"{br(wait.met_from)}",
                cites=("art4_par4",),
            )
        )
    barred_until = anniversary(ctx.as_of, int(ctx.param("transferor_bar_years"))) - dt.timedelta(days=1)
    result["transferor_barred_until"] = barred_until
    findings.append(
        ctx.finding(
            "transferor_bar",
            Status.INFO,
            f"Transferido o alvará, o permissionário anterior só poderá ser titular de novo depois de "
            f"{br(barred_until)} (2 anos da transferência)",
            cites=("art4_par3",),
        )
    )
    return findings


def replacement_finding(ctx: Context, facts: PermitApplication) -> Finding:
    """Art. 14 § 2º: two vehicle replacements in a year, beyond an accident or a newer vehicle."""
    reason = str(facts.extra.get("replacement_reason") or "other")
    if reason in ("accident", "newer_vehicle"):
        inciso = "art14_par2_incI" if reason == "accident" else "art14_par2_incII"
        label = "acidente comprovado" if reason == "accident" else "veículo mais novo, com vistoria prévia"
        return ctx.finding(
            "vehicle_replacements",
            Status.MET,
            f"Substituição por {label}: fora do limite anual",
            cites=("art14_par2", inciso),
        )
    done = int(
        ctx.require(
            facts.extra.get("vehicle_replacements_last_year"),
            "application.extra.vehicle_replacements_last_year",
        )
    )
    quota = within(int(ctx.param("vehicle_replacements_per_year")), done)
    return ctx.finding(
        "vehicle_replacements",
        Status.MET if quota.ok else Status.NOT_MET,
        quota.describe_pt("Substituições de veículo no período de 1 ano"),
        cites=("art14_par2",),
        counterfactual=None if quota.ok else "só por acidente comprovado ou por veículo mais novo",
    )


def retired_finding(ctx: Context, facts: PermitApplication) -> Finding | None:
    """Art. 11: a retired holder keeps the permit only with an auxiliary."""
    if not facts.operator.extra.get("retired"):
        return None
    helpers = max(facts.operator.auxiliary_drivers, sum(1 for d in facts.drivers if d.role == "auxiliary"))
    return ctx.finding(
        "retired_auxiliary",
        Status.MET if helpers else Status.NOT_MET,
        "Permissionário aposentado com auxiliar" if helpers else "Permissionário aposentado sem auxiliar",
        cites=("art11",),
        counterfactual=None if helpers else "seria atendido com um auxiliar cadastrado",
    )
