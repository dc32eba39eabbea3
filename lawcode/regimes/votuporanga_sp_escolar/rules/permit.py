"""The vehicle's authorization (arts. 4º to 6º): vehicle, drivers, quotas per operator (art. 5º), the fleet cap
and the student ratio (art. 4º-A, from Lei 6.151/2018), substitution (art. 4º § 3º) and renewal (art. 6º).
"""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility, format_decimal_pt
from lawcode.facts import Operator, PermitApplication
from lawcode.regime import rule

from .common import amended, amendment_in_force_from, br, is_current, operator_document, wording_date
from .drivers import DRIVER_CITES, driver_findings
from .validity import days_period_end, permit_valid_until
from .vehicles import VEHICLE_CITES, temporary_vehicle_findings, vehicle_findings

PERMIT_CITES = (
    VEHICLE_CITES
    + DRIVER_CITES
    + (
        "art4",
        "art4_par3",
        "art4A",
        "art4A_par2",
        "art5",
        "art6",
        "art6_a",
        "art6_b",
        "art6_c",
        "art6_d",
    )
)
TWO_PLACES = Decimal("0.01")


@rule("vehicle_permit", cites=PERMIT_CITES)
def vehicle_permit(ctx: Context, facts: PermitApplication) -> RuleResult:
    if facts.kind == "temporary":
        return _temporary(ctx, facts)
    vehicle, vehicle_result = vehicle_findings(ctx, facts.vehicle, new=facts.kind == "new")
    result: dict[str, Any] = dict(vehicle_result)
    findings = vehicle + _drivers(ctx, facts) + [_quota(ctx, facts, result)]
    findings += _fleet(ctx, facts, result)
    findings += _by_kind(ctx, facts)
    return eligibility(findings, result, if_granted={"valid_until": permit_valid_until(ctx, ctx.as_of)})


def _temporary(ctx: Context, facts: PermitApplication) -> RuleResult:
    """Art. 8º: another vehicle while the authorized one cannot be used; up to 30 days from the grant."""
    findings = temporary_vehicle_findings(ctx, facts.vehicle) + _drivers(ctx, facts)
    days = int(ctx.param("temporary_vehicle_days"))
    return eligibility(findings, if_granted={"valid_until": days_period_end(ctx, ctx.as_of, days)})


def _finding(
    ctx: Context,
    code: str,
    status: Status,
    message: str,
    cites: tuple[str, ...],
    counterfactual: str | None = None,
    on: dt.date | None = None,
) -> Finding:
    return ctx.finding(
        code, status, message, cites=cites, counterfactual=counterfactual, on=on or wording_date(ctx)
    )


def _drivers(ctx: Context, facts: PermitApplication) -> list[Finding]:
    if not facts.drivers:
        return [
            _finding(
                ctx,
                "drivers",
                Status.NOT_MET,
                "Nenhum condutor informado para o veículo",
                ("art4_incI",),
                counterfactual="seria deferido com um condutor que atenda ao art. 4º, I",
            )
        ]
    findings: list[Finding] = []
    for number, driver in enumerate(facts.drivers, start=1):
        findings += driver_findings(ctx, driver, prefix=f"driver_{number}_")[0]
    return findings


def _quota(ctx: Context, facts: PermitApplication, result: dict[str, Any]) -> Finding:
    """Art. 5º: 1 vehicle for a PF, up to 5 for a PJ; a new permit adds one, the other kinds keep the count."""
    operator = facts.operator
    limit = int(ctx.param("max_vehicles_pf" if operator.kind == "PF" else "max_vehicles_pj"))
    result["vehicle_limit"] = limit
    after = operator.active_permits + (1 if facts.kind == "new" else 0)
    who = "pessoa física" if operator.kind == "PF" else "pessoa jurídica"
    if after <= limit:
        return _finding(
            ctx,
            "vehicle_quota",
            Status.MET,
            f"{after} veículo(s) autorizado(s) para a {who} (limite {limit})",
            ("art5",),
        )
    return _finding(
        ctx,
        "vehicle_quota",
        Status.NOT_MET,
        f"A {who} já tem {operator.active_permits} veículo(s) autorizado(s); o limite é {limit}",
        ("art5",),
        counterfactual=f"seria deferido se a {who} tivesse menos de {limit} veículo(s) autorizado(s)",
    )


def _fleet(ctx: Context, facts: PermitApplication, result: dict[str, Any]) -> list[Finding]:
    """Art. 4º-A: the decree's fleet cap and ≥ 200 students per vehicle, for new vehicles, from Lei 6.151/2018."""
    if not amended(ctx):
        start = amendment_in_force_from(ctx)
        message = f"Teto de frota e índice de alunos só valem a partir de {br(start)} (Lei 6.151/2018)"
        return [
            _finding(ctx, code, Status.NOT_APPLICABLE, message, (cite,), on=start)
            for code, cite in (("fleet_cap", "art4A"), ("students_per_vehicle", "art4A_par2"))
        ]
    if facts.kind != "new":
        message = "Renovação, substituição ou temporário não aumentam a frota em circulação"
        return [_finding(ctx, "fleet_cap", Status.NOT_APPLICABLE, message, ("art4A",))]
    return [_fleet_cap(ctx, facts), _students(ctx, facts, result)]


def _fleet_cap(ctx: Context, facts: PermitApplication) -> Finding:
    cap = int(ctx.param("fleet_cap"))
    in_service = ctx.require(facts.school_vehicles_in_service, "school_vehicles_in_service")
    if in_service + 1 <= cap:
        return _finding(
            ctx,
            "fleet_cap",
            Status.MET,
            f"{in_service} veículos em circulação; com este, {in_service + 1} de no máximo {cap} (decreto)",
            ("art4A",),
        )
    return _finding(
        ctx,
        "fleet_cap",
        Status.NOT_MET,
        f"Teto de {cap} veículos em circulação atingido ({in_service} em circulação)",
        ("art4A",),
        counterfactual="seria deferido se o Prefeito ampliasse o número máximo por decreto",
    )


def _students(ctx: Context, facts: PermitApplication, result: dict[str, Any]) -> Finding:
    minimum = int(ctx.param("min_students_per_vehicle"))
    students = ctx.require(facts.enrolled_students, "enrolled_students")
    vehicles = ctx.require(facts.school_vehicles_in_service, "school_vehicles_in_service") + 1
    ratio = (Decimal(students) / Decimal(vehicles)).quantize(TWO_PLACES, rounding=ROUND_HALF_UP)
    result["students_per_vehicle"] = ratio
    if Decimal(students) >= minimum * vehicles:  # compare exactly, not the rounded ratio
        return _finding(
            ctx,
            "students_per_vehicle",
            Status.MET,
            f"{students} alunos para {vehicles} veículos: {format_decimal_pt(ratio)} por veículo (mínimo {minimum})",
            ("art4A_par2",),
        )
    return _finding(
        ctx,
        "students_per_vehicle",
        Status.NOT_MET,
        f"{students} alunos para {vehicles} veículos: {format_decimal_pt(ratio)} por veículo, abaixo de {minimum}",
        ("art4A_par2",),
        counterfactual=f"seria deferido com ao menos {minimum * vehicles} alunos matriculados",
    )


def _by_kind(ctx: Context, facts: PermitApplication) -> list[Finding]:
    if facts.kind == "substitution":
        return [_decharacterization(ctx, facts)]
    if facts.kind == "renewal":
        return _renewal(ctx, facts)
    return []


def _decharacterization(ctx: Context, facts: PermitApplication) -> Finding:
    proof = facts.vehicle.document("decharacterization_proof") or operator_document(
        facts.operator, "decharacterization_proof"
    )
    if proof is not None and proof.valid is not False:
        return _finding(
            ctx,
            "previous_vehicle_decharacterized",
            Status.MET,
            "Comprovada a descaracterização do veículo anterior da categoria aluguel",
            ("art4_par3",),
        )
    return _finding(
        ctx,
        "previous_vehicle_decharacterized",
        Status.NOT_MET,
        "Substituição sem comprovar a descaracterização do veículo anterior",
        ("art4_par3",),
        counterfactual="seria deferido com o comprovante de descaracterização do veículo anterior",
    )


def _renewal(ctx: Context, facts: PermitApplication) -> list[Finding]:
    """Art. 6º: last inspection approved, proof of art. 4º I and II, municipal tax clearance."""
    approved = ctx.require(facts.vehicle.detran_inspection_approved, "vehicle.detran_inspection_approved")
    inspection = _finding(
        ctx,
        "last_inspection",
        Status.MET if approved else Status.NOT_MET,
        "Última vistoria " + ("deferida" if approved else "não deferida") + " pelo DETRAN-SP e "
        "pela Secretaria",
        ("art6_a",),
    )
    proofs = _finding(
        ctx,
        "renewal_proofs",
        Status.INFO,
        "Renovação exige comprovar de novo as condições dos "
        "condutores (art. 4º, I) e do veículo (art. 4º, II), verificadas acima",
        ("art6_b", "art6_c"),
    )
    return [inspection, proofs, _tax_clearance(ctx, facts.operator)]


def _tax_clearance(ctx: Context, operator: Operator) -> Finding:
    certificate = operator_document(operator, "municipal_tax_clearance")
    if is_current(certificate, ctx.as_of):
        return _finding(
            ctx,
            "municipal_tax_clearance",
            Status.MET,
            "Certidão negativa de tributos municipais válida",
            ("art6_d",),
        )
    return _finding(
        ctx,
        "municipal_tax_clearance",
        Status.NOT_MET,
        "Sem certidão negativa de débitos com tributos municipais válida",
        ("art6_d",),
        counterfactual="seria deferido com a certidão negativa de tributos municipais",
    )
