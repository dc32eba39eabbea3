"""Vehicle requirements (art. 4º, II, "a" to "d" and "h"; §§ 1º and 3º) and vehicle age with the transition of
art. 4º, § 2º in both wordings.

Original wording (until Lei 6.151/2018): vehicles already registered with more than 15 years are replaced within
60 months of publication; those with 13, 12, 11 or 10 years get 4, 3, 2 or 1 years after reaching 15.
Lei 6.151/2018's wording: registered vehicles run while approved in the semestral inspections, and alínea "c"
does not apply to them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.context import Context
from lawcode.decision import Finding, Status
from lawcode.facts import Ownership, Vehicle

from .common import (
    PUBLISHED_ON,
    amended,
    amendment_in_force_from,
    br,
    document_status_pt,
    is_current,
    is_votuporanga,
    months_later,
    wording_date,
)

VEHICLE_CITES = (
    "art3_parun",
    "art4_incII",
    "art4_incII_a",
    "art4_incII_b",
    "art4_incII_c",
    "art4_incII_d",
    "art4_incII_h",
    "art4_par1",
    "art4_par2",
    "art4_par4",
    "art8",
    "art8_par1",
)
FAMILY_OWNERSHIP = {
    "own": "o próprio autorizatário",
    "fiduciary": "o autorizatário (alienação fiduciária)",
    "spouse": "o cônjuge",
    "child": "um filho",
    "company_partner": "um sócio",
}
GRACE_PARAMETERS = {
    13: "transition_grace_years_age_13",
    12: "transition_grace_years_age_12",
    11: "transition_grace_years_age_11",
    10: "transition_grace_years_age_10",
}


def _finding(
    ctx: Context,
    code: str,
    status: Status,
    message: str,
    cites: tuple[str, ...],
    counterfactual: str | None = None,
) -> Finding:
    return ctx.finding(
        code, status, message, cites=cites, counterfactual=counterfactual, on=wording_date(ctx)
    )


def vehicle_findings(ctx: Context, vehicle: Vehicle, *, new: bool) -> tuple[list[Finding], dict[str, Any]]:
    """Every art. 4º, II check for the vehicle; ``new`` applications get no transition."""
    result: dict[str, Any] = {}
    findings = [
        registration(ctx, vehicle),
        category(ctx, vehicle),
        ownership(ctx, vehicle),
        safety(ctx, vehicle),
        age(ctx, vehicle, new=new, result=result),
        licensing(ctx, vehicle),
        insurance(ctx, vehicle),
    ]
    return findings, result


def temporary_vehicle_findings(ctx: Context, vehicle: Vehicle) -> list[Finding]:
    """Art. 8º § 1º: the substitute vehicle needs DETRAN safety norms and the Secretaria's prior inspection only."""
    approved = ctx.require(vehicle.detran_inspection_approved, "vehicle.detran_inspection_approved")
    cites = ("art8", "art8_par1")
    if approved:
        return [
            _finding(
                ctx,
                "vehicle_safety",
                Status.MET,
                "Veículo provisório aprovado na inspeção prévia e nas normas de segurança do DETRAN",
                cites,
            )
        ]
    return [
        _finding(
            ctx,
            "vehicle_safety",
            Status.NOT_MET,
            "Veículo provisório sem aprovação na inspeção prévia",
            cites,
            counterfactual="seria deferido após a inspeção prévia da Secretaria",
        )
    ]


def registration(ctx: Context, vehicle: Vehicle) -> Finding:
    place = ctx.require(vehicle.registration_municipality, "vehicle.registration_municipality")
    if is_votuporanga(place):
        return _finding(
            ctx, "vehicle_registration", Status.MET, "Veículo registrado em Votuporanga", ("art4_incII_a",)
        )
    return _finding(
        ctx,
        "vehicle_registration",
        Status.NOT_MET,
        f"Veículo registrado em {place}, não em Votuporanga",
        ("art4_incII_a",),
        counterfactual="seria deferido com o registro transferido para Votuporanga",
    )


def category(ctx: Context, vehicle: Vehicle) -> Finding:
    kind = ctx.require(vehicle.category, "vehicle.category")
    if kind == "aluguel":
        return _finding(
            ctx, "vehicle_category", Status.MET, "Veículo na categoria aluguel", ("art4_incII_a",)
        )
    return _finding(
        ctx,
        "vehicle_category",
        Status.NOT_MET,
        f"Veículo na categoria {kind}; exige-se aluguel",
        ("art4_incII_a",),
        counterfactual="seria deferido com o veículo na categoria aluguel",
    )


def ownership(ctx: Context, vehicle: Vehicle) -> Finding:
    owner = ctx.require(vehicle.ownership, "vehicle.ownership")
    if owner.kind in FAMILY_OWNERSHIP:
        return _finding(
            ctx,
            "vehicle_ownership",
            Status.MET,
            f"Veículo em nome {FAMILY_OWNERSHIP[owner.kind]}",
            ("art4_incII_a",),
        )
    if owner.kind == "partner":
        return _stable_union(ctx)
    if owner.kind == "comodato":
        return _comodato(ctx, vehicle, owner)
    return _finding(
        ctx,
        "vehicle_ownership",
        Status.NOT_MET,
        "Veículo de terceiro por arrendamento ou locação: "
        "a lei só admite terceiro com contrato de comodato registrado",
        ("art4_incII_a", "art4_par1"),
        counterfactual="seria deferido com comodato registrado no Cartório de Títulos e Documentos",
    )


def _stable_union(ctx: Context) -> Finding:
    if ctx.interpretation("INT-VOT-STABLE-UNION") == "equated":
        return _finding(
            ctx,
            "vehicle_ownership",
            Status.MET,
            "Veículo em nome do companheiro, equiparado ao cônjuge",
            ("art4_incII_a",),
        )
    return _finding(
        ctx,
        "vehicle_ownership",
        Status.NOT_MET,
        "Veículo em nome do companheiro; a leitura adotada só admite o cônjuge",
        ("art4_incII_a",),
        counterfactual="seria deferido com comodato registrado (art. 4º, § 1º)",
    )


def _comodato(ctx: Context, vehicle: Vehicle, owner: Ownership) -> Finding:
    missing = []
    if owner.contract_registered_rtd is not True:
        missing.append("registro do contrato no Cartório de Títulos e Documentos")
    if vehicle.document("comodato_contract") is None:
        missing.append("cópia do contrato de comodato")
    if vehicle.document("identity_document") is None:
        missing.append("RG e CPF do proprietário")
    if not missing:
        return _finding(
            ctx,
            "vehicle_ownership",
            Status.MET,
            "Veículo de terceiro com comodato registrado",
            ("art4_par1",),
        )
    return _finding(
        ctx,
        "vehicle_ownership",
        Status.NOT_MET,
        "Comodato incompleto: falta " + ", ".join(missing),
        ("art4_par1",),
        counterfactual="seria deferido com " + ", ".join(missing),
    )


def safety(ctx: Context, vehicle: Vehicle) -> Finding:
    approved = ctx.require(vehicle.detran_inspection_approved, "vehicle.detran_inspection_approved")
    cites = ("art4_incII_b", "art3_parun")
    if approved:
        return _finding(
            ctx,
            "vehicle_safety",
            Status.MET,
            "Aprovado na vistoria de segurança do DETRAN (exigências do CTB e do CONTRAN)",
            cites,
        )
    return _finding(
        ctx,
        "vehicle_safety",
        Status.NOT_MET,
        "Veículo sem aprovação na vistoria de segurança do DETRAN",
        cites,
        counterfactual="seria deferido após aprovação na vistoria",
    )


def licensing(ctx: Context, vehicle: Vehicle) -> Finding:
    crlv = vehicle.document("crlv")
    state = document_status_pt(crlv, ctx.as_of)
    if is_current(crlv, ctx.as_of):
        return _finding(
            ctx, "vehicle_licensing", Status.MET, f"Licenciamento (CRLV) {state}", ("art4_incII_d",)
        )
    return _finding(
        ctx,
        "vehicle_licensing",
        Status.NOT_MET,
        f"Licenciamento (CRLV) {state}",
        ("art4_incII_d",),
        counterfactual="seria deferido com o licenciamento do exercício em dia",
    )


def insurance(ctx: Context, vehicle: Vehicle) -> Finding:
    policy = vehicle.document("app_insurance")
    state = document_status_pt(policy, ctx.as_of)
    if is_current(policy, ctx.as_of):
        return _finding(ctx, "vehicle_insurance", Status.MET, f"Seguro {state}", ("art4_incII_h",))
    return _finding(
        ctx,
        "vehicle_insurance",
        Status.NOT_MET,
        f"Comprovante de seguro {state}",
        ("art4_incII_h",),
        counterfactual="seria deferido com o comprovante de pagamento do seguro",
    )


# --- vehicle age and the transition of art. 4º § 2º --------------------------------------------------------


def age_on(ctx: Context, year: int, on: dt.date) -> int:
    """Age of a vehicle made in ``year`` on ``on``, by INT-VOT-VEHICLE-AGE."""
    if ctx.interpretation("INT-VOT-VEHICLE-AGE") == "from_january_first":
        since = dt.date(year, 1, 1)
        return on.year - year - (1 if (on.month, on.day) < (since.month, since.day) else 0)
    return on.year - year


def last_day_within_limit(ctx: Context, year: int, max_age: int) -> dt.date:
    """Last day a vehicle made in ``year`` does not exceed ``max_age`` years (INT-VOT-VEHICLE-AGE)."""
    if ctx.interpretation("INT-VOT-VEHICLE-AGE") == "from_january_first":
        return dt.date(year + max_age, 1, 1)
    return dt.date(year + max_age, 12, 31)


def earliest_accepted_year(ctx: Context, max_age: int) -> int:
    """The oldest manufacture year that still meets alínea "c" on ``as_of`` (for counterfactuals)."""
    year = ctx.as_of.year - max_age
    return year if ctx.as_of <= last_day_within_limit(ctx, year, max_age) else year + 1


def age(ctx: Context, vehicle: Vehicle, *, new: bool, result: dict[str, Any]) -> Finding:
    year = ctx.require(vehicle.manufacture_year, "vehicle.manufacture_year")
    max_age = int(ctx.param("max_vehicle_age"))
    result["vehicle_age"] = age_on(ctx, year, ctx.as_of)
    result["transition_until"] = None
    if ctx.as_of <= last_day_within_limit(ctx, year, max_age):
        return _finding(
            ctx,
            "vehicle_age",
            Status.MET,
            f"Veículo de {year}: {result['vehicle_age']} anos de fabricação (máximo {max_age})",
            ("art4_incII_c",),
        )
    if not new:
        exempt = _transition(ctx, vehicle, year, max_age, result)
        if exempt is not None:
            return exempt
    first = earliest_accepted_year(ctx, max_age)
    return _finding(
        ctx,
        "vehicle_age",
        Status.NOT_MET,
        f"Veículo de {year} excede {max_age} anos de fabricação",
        ("art4_incII_c",),
        counterfactual=f"seria deferido se o veículo fosse fabricado a partir de {first}",
    )


def _transition(
    ctx: Context, vehicle: Vehicle, year: int, max_age: int, result: dict[str, Any]
) -> Finding | None:
    registered = ctx.require(vehicle.registered_in_service_on, "vehicle.registered_in_service_on")
    if amended(ctx):
        return _amended_transition(ctx, registered)
    if registered > PUBLISHED_ON:
        return None
    until = _original_deadline(ctx, year, max_age)
    if until is None:
        return None
    result["transition_until"] = until
    message = (
        f"Veículo cadastrado antes de {br(PUBLISHED_ON)} com {age_on(ctx, year, PUBLISHED_ON)} anos na "
        f"publicação da lei: pode circular até {br(until)} (art. 4º, § 2º, redação original)"
    )
    if ctx.as_of <= until:
        return _finding(ctx, "vehicle_age", Status.WARNING, message, ("art4_incII_c", "art4_par2"))
    return _finding(
        ctx,
        "vehicle_age",
        Status.NOT_MET,
        message + "; prazo encerrado",
        ("art4_incII_c", "art4_par2"),
        counterfactual="seria deferido com a substituição do veículo",
    )


def _original_deadline(ctx: Context, year: int, max_age: int) -> dt.date | None:
    """Replacement deadline of the original art. 4º § 2º for a vehicle registered at publication."""
    age_at_publication = age_on(ctx, year, PUBLISHED_ON)
    on = wording_date(ctx)  # the original wording may still govern after 20/03/2018 (LINDB reading)
    sixty_months = months_later(PUBLISHED_ON, int(ctx.param_on("transition_replacement_months", on)))
    if age_at_publication > max_age:
        return sixty_months
    if age_at_publication in GRACE_PARAMETERS:
        grace_years = int(ctx.param_on(GRACE_PARAMETERS[age_at_publication], on))
        return months_later(last_day_within_limit(ctx, year, max_age), 12 * grace_years)
    if age_at_publication > max(GRACE_PARAMETERS):  # 14 or exactly 15: the text is silent
        return sixty_months if ctx.interpretation("INT-VOT-TRANSITION-GAP") == "sixty_months" else None
    return None


def _amended_transition(ctx: Context, registered: dt.date) -> Finding | None:
    """Lei 6.151/2018's § 2º: vehicles registered when "esta Lei" took effect are exempt from alínea "c"."""
    if ctx.interpretation("INT-VOT-TRANSITION-REFERENCE") == "lei_6151":
        reference = amendment_in_force_from(ctx)
    else:
        reference = PUBLISHED_ON
    if registered > reference:
        return None
    return _finding(
        ctx,
        "vehicle_age",
        Status.NOT_APPLICABLE,
        f"Veículo cadastrado em {br(registered)}, até {br(reference)}: pode circular enquanto aprovado "
        "nas vistorias semestrais, sem o limite de 15 anos",
        ("art4_par2", "art4_par4"),
    )
