"""Vehicle authorization: arts. 2, 4 I b–d, 4 II a–b, 4 §§1–2, 6, 8 and 9 (and 11-A for a temporary vehicle).

``valid_until`` is the earliest of: the yearly vistoria's validity (art. 4 II b, art. 9) and the last day the
vehicle meets the age limit — extended to the end of the art. 4 §2 transition when the driver already held
a vehicle of up to 15 years on the day the law took effect.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.deadlines import MonthRounding, add_months
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.errors import InvalidFactError
from lawcode.facts import PermitApplication, Vehicle
from lawcode.regime import rule

from .common import DEADLINE_CITES, br, check, is_home_municipality, is_usable, with_cure_window, years_later
from .ownership import ownership_findings
from .temporary import temporary_substitution
from .transition import TransitionCheck, check_transition
from .vehicle_age import VEHICLE_AGE, earliest_year_within, last_day_within, vehicle_age

ACCESSIBILITY = {
    "acessivel": ("art1_parun_incV", "automóvel com acessibilidade (não adaptado, apto a transportar PcD)"),
    "adaptado": ("art1_parun_incVI", "automóvel adaptado com equipamentos para PcD"),
}


@rule(
    "vehicle_permit",
    cites=(
        "art1_parun_incV",
        "art1_parun_incVI",
        "art2",
        "art4",
        "art4_incI_b",
        "art4_incI_c",
        "art4_incI_d",
        "art4_incII",
        "art4_incII_a",
        "art4_incII_b",
        "art4_par1",
        "art4_par2",
        "art6",
        "art6_parun",
        "art8",
        "art9",
        "art9_incII",
        "art7_parun",
        "art11A",
        *DEADLINE_CITES,
    ),
)
def vehicle_permit(ctx: Context, facts: PermitApplication) -> RuleResult:
    if facts.kind == "temporary":
        return with_cure_window(ctx, temporary_substitution(ctx, facts))
    vehicle = facts.vehicle
    result: dict[str, object] = {}
    findings = [*_physical_findings(ctx, vehicle), _category_finding(ctx, vehicle)]
    age_finding, last_allowed = _age_findings(ctx, vehicle, result)
    findings += age_finding
    findings += [
        _registration_finding(ctx, vehicle),
        _crlv_finding(ctx, vehicle),
        *ownership_findings(ctx, vehicle),
    ]
    findings += [_drivers_finding(ctx, facts, result), _inspection_fee_finding(ctx, vehicle)]
    inspection_finding, inspection_until = _inspection_finding(ctx, vehicle, result)
    findings += [inspection_finding, _maintenance_finding(ctx, vehicle, result)]
    findings += _accessibility(ctx, vehicle, result)
    # Valid while both the yearly vistoria and the age limit (or the art. 4 §2 transition) hold.
    validity = {"valid_until": min(inspection_until, last_allowed)} if inspection_until else {}
    return with_cure_window(ctx, eligibility(findings, result, if_granted=validity))


# --- art. 2 and art. 4 II a: capacity, category, doors, air conditioning ---------------------------------


def _physical_findings(ctx: Context, vehicle: Vehicle) -> list[Finding]:
    seats = ctx.require(vehicle.seats, "vehicle.seats")
    max_seats = int(ctx.param("max_capacity_including_driver"))
    doors = ctx.require(vehicle.doors, "vehicle.doors")
    min_doors = int(ctx.param("vehicle_min_doors"))
    air = ctx.require(vehicle.air_conditioning, "vehicle.air_conditioning")
    return [
        check(
            ctx,
            "capacity",
            seats <= max_seats,
            f"Lotação de {seats} pessoas, incluído o condutor (máximo {max_seats}).",
            cites=("art2",),
            counterfactual=f"seria deferido com lotação de até {max_seats} pessoas",
        ),
        check(
            ctx,
            "doors",
            doors >= min_doors,
            f"Veículo com {doors} portas (exigidas {min_doors}).",
            cites=("art4_incII_a",),
            counterfactual=f"seria deferido com veículo de {min_doors} portas",
        ),
        check(
            ctx,
            "air_conditioning",
            air,
            "Veículo " + ("com" if air else "sem") + " ar-condicionado.",
            cites=("art4_incII_a",),
            counterfactual="seria deferido com veículo equipado com ar-condicionado",
        ),
    ]


def _category_finding(ctx: Context, vehicle: Vehicle) -> Finding:
    category = ctx.require(vehicle.category, "vehicle.category")
    ok = category == "particular"
    return check(
        ctx,
        "vehicle_category",
        ok,
        f"Veículo registrado na categoria {category}; o serviço é executado em automóvel particular.",
        cites=("art2",),
        counterfactual="seria deferido com veículo da categoria particular",
    )


# --- art. 4 II a, §1 and §2: age and transition ------------------------------------------------------------


def _age_findings(ctx: Context, vehicle: Vehicle, result: dict[str, object]) -> tuple[list[Finding], dt.date]:
    year = ctx.require(vehicle.manufacture_year, "vehicle.manufacture_year")
    reading = ctx.interpretation(VEHICLE_AGE)
    max_age = int(ctx.param("vehicle_max_age_years"))
    age = vehicle_age(year, ctx.as_of, reading)
    normal_last = last_day_within(year, max_age, reading)
    result.update(vehicle_age_years=age, age_limit_last_day=normal_last)
    cites = ("art4_incII_a", "art4_par1")
    if age <= max_age:
        transition = check_transition(ctx, vehicle, year, reading) if _owner_known(vehicle) else None
        last = max(normal_last, transition.last_day) if transition and transition.eligible else normal_last
        message = f"Veículo fabricado em {year}: {age} anos de uso (máximo {max_age}); atende até {br(normal_last)}."
        return [ctx.finding("vehicle_age", Status.MET, message, cites=cites)], last
    transition = check_transition(ctx, vehicle, year, reading)
    result["transition_until"] = transition.end
    findings = [_over_age_finding(ctx, year, age, max_age, reading, transition), transition.finding]
    return findings, transition.last_day if transition.allowed_today else normal_last


def _owner_known(vehicle: Vehicle) -> bool:
    return vehicle.ownership is not None and vehicle.ownership.since is not None


def _over_age_finding(
    ctx: Context, year: int, age: int, max_age: int, reading: str, transition: TransitionCheck
) -> Finding:
    earliest = earliest_year_within(ctx.as_of, max_age, reading)
    if transition.allowed_today:
        return ctx.finding(
            "vehicle_age",
            Status.WARNING,
            f"Veículo fabricado em {year}: {age} anos de uso, acima do máximo de {max_age}; admitido "
            f"pela transição do art. 4 §2 até {br(transition.last_day)}.",
            cites=("art4_incII_a", "art4_par1", "art4_par2"),
        )
    return ctx.finding(
        "vehicle_age",
        Status.NOT_MET,
        f"Veículo fabricado em {year}: {age} anos de uso, acima do máximo de {max_age}.",
        cites=("art4_incII_a", "art4_par1"),
        counterfactual=f"seria deferido se o veículo fosse fabricado a partir de {earliest}",
    )


# --- art. 4 I d: licensed in Patrocínio, CRLV --------------------------------------------------------------


def _registration_finding(ctx: Context, vehicle: Vehicle) -> Finding:
    municipality = ctx.require(vehicle.registration_municipality, "vehicle.registration_municipality")
    ok = is_home_municipality(ctx, municipality)
    home = ctx.regime.municipality
    return check(
        ctx,
        "registration_municipality",
        ok,
        f"Veículo licenciado em {municipality}" + ("." if ok else f"; deve ser licenciado em {home}."),
        cites=("art4_incI_d",),
        counterfactual=f"seria deferido com o veículo licenciado em {home}",
    )


def _crlv_finding(ctx: Context, vehicle: Vehicle) -> Finding:
    ok = is_usable(vehicle.document("crlv"), ctx.as_of)
    message = "CRLV apresentado e vigente." if ok else "Não apresentou CRLV vigente do veículo."
    return check(
        ctx, "crlv", ok, message, cites=("art4_incI_d",), counterfactual="seria deferido com o CRLV vigente"
    )


# --- art. 4 I b and c, art. 8: drivers per vehicle and inspection fee -------------------------------------


def _drivers_finding(ctx: Context, facts: PermitApplication, result: dict[str, object]) -> Finding:
    count = facts.vehicle_drivers if facts.vehicle_drivers is not None else len(facts.drivers)
    if count < 1:
        raise InvalidFactError("vehicle_drivers", "a vehicle permit needs at least one driver on the vehicle")
    limit = int(ctx.param("max_drivers_per_vehicle"))
    result["drivers_on_vehicle"] = count
    ok = count <= limit
    return check(
        ctx,
        "drivers_per_vehicle",
        ok,
        f"{count} condutor(es) cadastrado(s) no veículo (máximo {limit}).",
        cites=("art4_incI_b",),
        counterfactual=f"seria deferido com até {limit} condutores no veículo",
    )


def _inspection_fee_finding(ctx: Context, vehicle: Vehicle) -> Finding:
    ok = is_usable(vehicle.document("inspection_fee_receipt"), ctx.as_of)
    message = "Taxa de vistoria paga." if ok else "Não comprovou o pagamento da taxa de vistoria."
    return check(
        ctx,
        "inspection_fee",
        ok,
        message,
        cites=("art4_incI_c", "art8"),
        counterfactual="seria deferido com o pagamento da taxa de vistoria",
    )


# --- art. 4 II b and art. 9: yearly vistoria and maintenance in the last 6 months --------------------------


def _inspection_finding(
    ctx: Context, vehicle: Vehicle, result: dict[str, object]
) -> tuple[Finding, dt.date | None]:
    approved = vehicle.inspection_approved_on
    cites = ("art4_incII_b", "art9")
    if approved is None:
        return ctx.finding(
            "inspection",
            Status.NOT_MET,
            "Veículo ainda sem aprovação na vistoria da SESTRAN.",
            cites=cites,
            counterfactual="seria deferido após a aprovação na vistoria anual",
        ), None
    until = years_later(ctx, approved, int(ctx.param("inspection_interval_years"))).end
    result["inspection_valid_until"] = until
    ok = approved <= ctx.as_of <= until
    message = f"Vistoria aprovada em {br(approved)}, válida até {br(until)}" + ("." if ok else " — vencida.")
    finding = check(
        ctx,
        "inspection",
        ok,
        message,
        cites=cites,
        counterfactual="seria deferido após nova aprovação na vistoria anual",
    )
    return finding, until


def _maintenance_finding(ctx: Context, vehicle: Vehicle, result: dict[str, object]) -> Finding:
    reference = vehicle.inspection_approved_on or ctx.as_of
    months = int(ctx.param("maintenance_lookback_months"))
    since = add_months(reference, -months, rounding=MonthRounding.LAST_DAY_OF_MONTH)
    result["maintenance_required_since"] = since
    last = vehicle.last_maintenance
    ok = last is not None and last >= since
    shown = br(last) if last else "não comprovada"
    return check(
        ctx,
        "maintenance",
        ok,
        f"Última manutenção regular: {shown}; exigida desde {br(since)} ({months} meses antes da vistoria).",
        cites=("art9_incII", "lei9784:art66_par3"),
        counterfactual=f"seria deferido com manutenção comprovada a partir de {br(since)}",
    )


def _accessibility(ctx: Context, vehicle: Vehicle, result: dict[str, object]) -> list[Finding]:
    if vehicle.accessibility is None:
        return []
    if vehicle.accessibility not in ACCESSIBILITY:
        raise InvalidFactError("vehicle.accessibility", f"use one of: {', '.join(ACCESSIBILITY)}")
    cite, label = ACCESSIBILITY[vehicle.accessibility]
    result["accessibility"] = vehicle.accessibility
    return [ctx.finding("accessibility", Status.INFO, f"Tipo de acessibilidade: {label}.", cites=(cite,))]
