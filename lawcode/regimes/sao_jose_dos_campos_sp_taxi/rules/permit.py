"""The Alvará de Permissão with its Termo de Licença de Veículo (arts. 1º § 1º, 6º, 9º, 10, 12 to 14, 19).

A permit is asked for a vehicle: the holder's requirements (registration.py), at most one auxiliary (art. 10),
the vehicle's (white, 4 doors, taximeter, light box, permit number — checked at the prior vistoria, art. 12;
at most 10 years from the year of manufacture, art. 14), and, for a new permit, room in the fleet the yearly
decree fixes within 1 taxi per 1,563 inhabitants plus the districts' 2 (art. 19). The permit is renewed every
year in the month the plate's final digit gives (art. 6º); ``valid_until`` is the last day of that month.
"""

from __future__ import annotations

from typing import Any

from lawcode.blocks.limits import Bound, at_least
from lawcode.blocks.quotas import Rounding, per_population, within
from lawcode.blocks.vehicle_age import AgeCounting, vehicle_age
from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.facts import DeadlineFacts, PermitApplication, Vehicle
from lawcode.regime import rule

from .common import br, document_state, month_pt, renewal_due, renewal_month
from .registration import OPERATOR_CITES, operator_findings
from .transfer import (
    REPLACEMENT_CITES,
    TRANSFER_CITES,
    heir_cnh_grace,
    replacement_finding,
    retired_finding,
    transfer_findings,
    transfer_reason,
)

VEHICLE_CITES = (
    "art1",
    "art1_par1",
    "art3_incVII",
    "art6",
    "art12",
    "art13",
    "art13_incI",
    "art13_incII",
    "art13_incIII",
    "art12_parun",
    "art14",
    "art14_par1",
    "ctb:art135",
)
FLEET_CITES = ("art19", "art19_par1", "art19_par2")
PERMIT_CITES = (
    *OPERATOR_CITES,
    *VEHICLE_CITES,
    *FLEET_CITES,
    *TRANSFER_CITES,
    *REPLACEMENT_CITES,
    "art10",
    "art11",
)


@rule("vehicle_permit", cites=PERMIT_CITES)
def vehicle_permit(ctx: Context, facts: PermitApplication) -> RuleResult:
    new = facts.kind == "new"
    transfer = transfer_reason(facts) is not None
    # A renewal or substitution replaces the taxi the holder already explores (art. 9º counts it once).
    findings = _holder_findings(ctx, facts, adding=1 if new else 0)
    findings.append(_auxiliary_finding(ctx, facts))
    findings += _vehicle_findings(ctx, facts.vehicle, renewal=facts.kind == "renewal" or transfer)
    result: dict[str, Any] = {"transfer": transfer}
    if transfer:
        findings += transfer_findings(ctx, facts, result)
    elif new:
        # A transfer moves an existing permit; only a new one needs room in the fleet (art. 19).
        findings.append(_fleet_finding(ctx, facts, result))
    if facts.kind == "substitution":
        findings.append(replacement_finding(ctx, facts))
    plate = ctx.require(facts.vehicle.plate, "vehicle.plate")
    month = renewal_month(ctx, plate)
    valid_until = renewal_due(ctx, ctx.as_of, month)
    findings.append(
        ctx.finding(
            "renewal",
            Status.INFO,
            f"Alvará renovável anualmente em {month_pt(month)} (placa final {plate.strip()[-1]}): "
            f"válido até {br(valid_until)}; a vistoria se renova no mesmo período",
            cites=("art6", "art12_parun"),
        )
    )
    result["renewal_month"] = month
    return eligibility(findings, result, if_granted={"valid_until": valid_until})


def _holder_findings(ctx: Context, facts: PermitApplication, *, adding: int) -> list[Finding]:
    """The holder's requirements; an heir by death may still present the CNH (art. 4º § 1º); a retired holder
    needs an auxiliary (art. 11)."""
    shared = ctx.shared(  # the holder's own findings: the same for each of their taxis in a bulk run
        "operator_findings",
        (facts.operator,),
        adding,
        lambda: operator_findings(ctx, facts.operator, adding=adding),
    )
    findings = list(shared)
    grace = heir_cnh_grace(ctx, facts)
    if grace is not None:
        findings = [f for f in findings if f.code != "cnh"] + [grace]
    retired = retired_finding(ctx, facts)
    return findings + ([retired] if retired is not None else [])


def _auxiliary_finding(ctx: Context, facts: PermitApplication) -> Finding:
    named = sum(1 for d in facts.drivers if d.role == "auxiliary")
    quota = within(
        int(ctx.param("auxiliaries_per_permit")), max(named, facts.operator.auxiliary_drivers), adding=0
    )
    return ctx.finding(
        "auxiliary",
        Status.MET if quota.ok else Status.NOT_MET,
        quota.describe_pt("Auxiliares em regime de colaboração"),
        cites=("art10",),
        counterfactual=None if quota.ok else "o permissionário pode ceder o veículo a 1 auxiliar",
    )


def _vehicle_findings(ctx: Context, vehicle: Vehicle, *, renewal: bool) -> list[Finding]:
    return [
        _rental_category(ctx, vehicle),
        _doors(ctx, vehicle),
        _age(ctx, vehicle, renewal=renewal),
        _crlv(ctx, vehicle),
        _inspection(ctx, vehicle),
    ]


def _rental_category(ctx: Context, vehicle: Vehicle) -> Finding:
    if vehicle.category == "aluguel":
        return ctx.finding(
            "category", Status.MET, "Veículo registrado na categoria aluguel", cites=("art1", "ctb:art135")
        )
    if vehicle.category is None:
        return ctx.finding(
            "category",
            Status.WARNING,
            "Categoria do registro não informada: o táxi é veículo de aluguel",
            cites=("art1", "ctb:art135"),
        )
    return ctx.finding(
        "category",
        Status.NOT_MET,
        "Veículo registrado como particular: o táxi é veículo de aluguel",
        cites=("art1", "ctb:art135"),
        counterfactual="seria atendido com o registro na categoria aluguel",
    )


def _doors(ctx: Context, vehicle: Vehicle) -> Finding:
    doors = ctx.require(vehicle.doors, "vehicle.doors")
    minimum = int(ctx.param("min_doors"))
    ok = at_least(doors, minimum, bound=Bound.INCLUSIVE)
    return ctx.finding(
        "doors",
        Status.MET if ok else Status.NOT_MET,
        f"{doors} portas (mínimo {minimum})",
        cites=("art12",),
        counterfactual=None if ok else f"seria atendido com veículo de ao menos {minimum} portas",
    )


def _age(ctx: Context, vehicle: Vehicle, *, renewal: bool) -> Finding:
    year = ctx.require(vehicle.manufacture_year, "vehicle.manufacture_year")
    counting = AgeCounting(ctx.interpretation("INT-SJC-VEHICLE-AGE"))
    age = vehicle_age(year, ctx.as_of.year, int(ctx.param("max_vehicle_age")), counting=counting)
    cites = ("art14", "art14_par1") if renewal else ("art14",)
    return ctx.finding(
        "vehicle_age",
        Status.MET if age.ok else Status.NOT_MET,
        age.describe_pt(year)[0].upper()
        + age.describe_pt(year)[1:]
        + ("; atingido o limite, o alvará não é renovado nem transferido" if renewal and not age.ok else ""),
        cites=cites,
        counterfactual=None
        if age.ok
        else f"seria deferido com veículo fabricado a partir de {age.earliest_allowed_year}",
    )


def _crlv(ctx: Context, vehicle: Vehicle) -> Finding:
    accepted, why = document_state(vehicle.document("crlv"), ctx.as_of)
    return ctx.finding(
        "crlv",
        Status.MET if accepted else Status.NOT_MET,
        f"Certificado de registro e licenciamento do veículo: {why}",
        cites=("art3_incVII",),
    )


def _inspection(ctx: Context, vehicle: Vehicle) -> Finding:
    """Art. 12: colour, doors, condition and the equipment of art. 13 are proven at the prior vistoria."""
    passed = vehicle.inspection_approved_on
    if passed is None:
        return ctx.finding(
            "inspection",
            Status.NOT_MET,
            "Vistoria prévia não aprovada: cor branca, estado de funcionamento, segurança, higiene e conservação, "
            'taxímetro aferido e lacrado, caixa luminosa "táxi" e número do alvará na traseira são comprovados nela',
            cites=("art12", "art13", "art13_incI", "art13_incII", "art13_incIII", "art1_par1"),
            counterfactual="seria atendido após a aprovação na vistoria prévia",
        )
    return ctx.finding(
        "inspection",
        Status.MET,
        f"Vistoria prévia aprovada em {br(passed)} (cor branca, equipamentos do art. 13 e estado do veículo)",
        cites=("art12", "art13", "art1_par1"),
    )


def _fleet_finding(ctx: Context, facts: PermitApplication, result: dict[str, Any]) -> Finding:
    """Art. 19: the decree's number of taxis, never above 1 per 1,563 inhabitants plus the districts' 2."""
    in_service = ctx.require(facts.school_vehicles_in_service, "school_vehicles_in_service")
    limit = per_population(
        int(ctx.param("population")),
        int(ctx.param("inhabitants_per_taxi")),
        extras=int(ctx.param("district_permits")),
        rounding=Rounding.DOWN,
    )
    cap = limit.cap
    source = f"limite legal: {limit.describe_pt()}"
    if ctx.interpretation("INT-SJC-FLEET-CAP") == "decree_required":
        decree = int(facts.fleet_cap if facts.fleet_cap is not None else ctx.param("fleet_cap"))
        cap = min(decree, limit.cap)
        source = f"decreto: {decree} táxis; {source}" + (
            " (o decreto excede o limite legal, que prevalece)" if decree > limit.cap else ""
        )
    quota = within(cap, in_service)
    result.update(fleet_cap=cap, fleet_legal_limit=limit.cap, taxis_in_service=in_service)
    return ctx.finding(
        "fleet_cap",
        Status.MET if quota.ok else Status.NOT_MET,
        f"{quota.describe_pt('Táxis em circulação')} ({source})",
        cites=FLEET_CITES,
        counterfactual=None
        if quota.ok
        else "só há nova permissão quando vagar uma ou o decreto ampliar a frota",
    )


@rule("permit_validity", cites=("art6",))
def permit_validity(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """Without the plate only the latest possible renewal is known: May of the following year (the last month
    of art. 6º's table); ``vehicle_permit`` gives the month of the plate."""
    last_month = max(int(m) for m in ctx.param("renewal_month_by_final_digit").values())
    valid_until = renewal_due(ctx, facts.start, last_month)
    finding = ctx.finding(
        "permit_validity",
        Status.INFO,
        f"Alvará concedido em {br(facts.start)}: renova-se anualmente no mês do final da placa (janeiro a "
        f"{month_pt(last_month)}); no máximo até {br(valid_until)}",
        cites=("art6",),
    )
    return RuleResult("computed", [finding], {"valid_until": valid_until, "latest_month": last_month})
