"""The vehicle permit (alvará, art. 13): vehicle, ownership (art. 12), operator, drivers, attendant, quotas
(arts. 2 and 8), bans (arts. 26-27), scope (art. 17), substitution (arts. 19-20), temporary vehicle (art. 14)
and the art. 40 transitions."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Mapping
from types import MappingProxyType

from lawcode.context import Context
from lawcode.deadlines import MonthRounding, count_months
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.facts import Operator, PermitApplication, Vehicle
from lawcode.regime import rule

from .bans import BAN_CITES, ban_finding
from .common import br, completed_years, document_finding, is_olimpia
from .people import PEOPLE_CITES, art9_personal_findings, art11_findings, attendant_findings
from .registration import pj_company_findings
from .transitions import (
    TRANSITION_CITES,
    is_incumbent,
    provider_is_incumbent,
    replacement_end,
    with_transition,
)

CONTRACT_KINDS = {"comodato": "comodato_contract"}  # aluguel, arrendamento and the others: lease_contract


def vehicle_age(ctx: Context, manufacture_year: int, on: dt.date) -> int:
    """Age in years by INT-OLI-VEHICLE-AGE."""
    if ctx.interpretation("INT-OLI-VEHICLE-AGE") == "completed_years_from_dec31":
        return completed_years(dt.date(manufacture_year, 12, 31), on)
    return on.year - manufacture_year


def first_allowed_year(ctx: Context, max_age: int) -> int:
    year = ctx.as_of.year - max_age - 1
    while vehicle_age(ctx, year, ctx.as_of) > max_age:
        year += 1
    return year


def old_vehicle_transition(ctx: Context, vehicle: Vehicle, age: int) -> tuple[Finding, dt.date | None] | None:
    """Art. 40 I and § 1º for a vehicle over the limit; None when the transition does not cover it."""
    threshold = int(ctx.param("old_vehicle_threshold_years"))
    eligible = ctx.interpretation("INT-OLI-TRANSITION-VEHICLES") == "any_vehicle" or is_incumbent(
        ctx, vehicle
    )
    end = replacement_end(ctx)
    if age < threshold or not eligible or ctx.as_of > end:
        return None
    if not ctx.require(vehicle.detran_inspection_approved, "vehicle.detran_inspection_approved"):
        return ctx.finding(
            "vehicle_age",
            Status.NOT_MET,
            f"Veículo com {age} anos reprovado na vistoria do DETRAN: substituição imediata",
            cites=("art40_par1", "art13_incII"),
            data={"age": age},
        ), None
    return ctx.finding(
        "vehicle_age",
        Status.WARNING,
        f"Veículo com {age} anos, aprovado na vistoria do DETRAN: pode circular até {br(end)}, "
        "prazo para a troca",
        cites=("art40_incI", "art13_incII"),
        data={"age": age},
    ), end


def vehicle_age_finding(ctx: Context, vehicle: Vehicle) -> tuple[Finding, dt.date | None, int]:
    """Art. 13 II and the art. 40 transition; the same for every vehicle of the same year, inspection result
    and date in service (a bulk run words each once per Config)."""
    year = ctx.require(vehicle.manufacture_year, "vehicle.manufacture_year")
    key = (year, vehicle.detran_inspection_approved, vehicle.registered_in_service_on)
    return ctx.shared("vehicle_age", (), key, lambda: _vehicle_age_finding(ctx, vehicle, year))


def _vehicle_age_finding(ctx: Context, vehicle: Vehicle, year: int) -> tuple[Finding, dt.date | None, int]:
    age, max_age = vehicle_age(ctx, year, ctx.as_of), int(ctx.param("max_vehicle_age"))
    if age <= max_age:
        return (
            ctx.finding(
                "vehicle_age",
                Status.MET,
                f"Veículo fabricado em {year}: {age} anos (máximo {max_age})",
                cites=("art13_incII",),
                data={"age": age},
            ),
            None,
            age,
        )
    transition = old_vehicle_transition(ctx, vehicle, age)
    if transition is not None:
        return transition[0], transition[1], age
    cites = ("art13_incII", "art40_par3") if is_incumbent(ctx, vehicle) else ("art13_incII",)
    counterfactual = (
        f"seria deferido se o veículo fosse fabricado a partir de {first_allowed_year(ctx, max_age)}"
    )
    return (
        ctx.finding(
            "vehicle_age",
            Status.NOT_MET,
            f"Veículo fabricado em {year}: {age} anos, acima do máximo de {max_age}",
            cites=cites,
            counterfactual=counterfactual,
            data={"age": age},
        ),
        None,
        age,
    )


def ownership_finding(ctx: Context, vehicle: Vehicle, crv_cites: tuple[str, ...]) -> Finding:
    """Own vehicle (CRV) or, art. 12, comodato/aluguel/arrendamento with the RENAVAM link."""
    ownership = ctx.require(vehicle.ownership, "vehicle.ownership")
    if ownership.kind == "own":
        return document_finding(ctx, "ownership", vehicle.document("crv"), "crv", cites=crv_cites)
    contract_kind = CONTRACT_KINDS.get(ownership.kind, "lease_contract")
    contract = vehicle.document(contract_kind)
    problems = [] if contract is not None and contract.valid is not False else ["sem contrato apresentado"]
    if ownership.renavam_link is not True:
        problems.append("vínculo não formalizado no RENAVAM")
    if not problems:
        return ctx.finding(
            "ownership", Status.MET, "Veículo de terceiro com contrato e vínculo no RENAVAM", cites=("art12",)
        )
    return ctx.finding(
        "ownership",
        Status.NOT_MET,
        "Veículo não está em nome do autorizatário: " + "; ".join(problems),
        cites=("art12",),
        counterfactual="seria atendido com contrato de comodato, aluguel ou arrendamento "
        "vinculado no RENAVAM",
    )


def flag_finding(
    ctx: Context, code: str, value: bool | None, field: str, ok: str, bad: str, cite: str
) -> Finding:
    if ctx.require(value, field):
        return ctx.finding(code, Status.MET, ok, cites=(cite,))
    return ctx.finding(code, Status.NOT_MET, bad, cites=(cite,))


def registration_finding(ctx: Context, vehicle: Vehicle) -> Finding:
    municipality = ctx.require(vehicle.registration_municipality, "vehicle.registration_municipality")
    if is_olimpia(municipality):
        return ctx.finding(
            "registration_municipality", Status.MET, "Veículo licenciado em Olímpia", cites=("art13_incIII",)
        )
    return ctx.finding(
        "registration_municipality",
        Status.NOT_MET,
        f"Veículo licenciado em {municipality}",
        cites=("art13_incIII",),
        counterfactual="seria atendido com o licenciamento em Olímpia",
    )


def door_finding(ctx: Context, facts: PermitApplication) -> Finding:
    if facts.kind in ("new", "temporary"):
        return ctx.finding(
            "door_identification",
            Status.INFO,
            "O número do alvará será aplicado nas portas dianteiras após a expedição",
            cites=("art13_incV",),
        )
    return flag_finding(
        ctx,
        "door_identification",
        facts.vehicle.permit_number_on_doors,
        "vehicle.permit_number_on_doors",
        "Número do alvará nas duas portas dianteiras",
        "Número do alvará ausente das portas dianteiras",
        "art13_incV",
    )


@functools.cache  # four tables; a bulk run asks for one per vehicle
def document_cites(pf: bool, substitution: bool) -> Mapping[str, tuple[str, ...]]:
    """Where each vehicle document is required: art. 9 (PF) or 10 (PJ), and art. 19 for a substitution."""
    cites = {
        "crv": ("art9_incXI",) if pf else ("art10_incVI",),
        "crlv": ("art9_incXII",) if pf else ("art10_incVII",),
        "app_insurance": ("art9_incXIII",) if pf else ("art10_incVIII",),
        "detran_school_authorization": ("art9_incXIV" if pf else "art10_incIX", "art13_incI", "ctb:art136"),
    }
    if substitution:
        extra = {
            "crv": "art19_incII",
            "crlv": "art19_incIII",
            "app_insurance": "art19_incIV",
            "detran_school_authorization": "art19_incV",
        }
        cites = {kind: (*refs, extra[kind]) for kind, refs in cites.items()}
    return MappingProxyType(cites)


def vehicle_findings(ctx: Context, facts: PermitApplication, pf: bool) -> list[Finding]:
    vehicle = facts.vehicle
    cites = document_cites(pf, facts.kind == "substitution")
    return [
        ownership_finding(ctx, vehicle, cites["crv"]),
        *(
            document_finding(ctx, kind, vehicle.document(kind), kind, cites=cites[kind])
            for kind in ("crlv", "app_insurance", "detran_school_authorization")
        ),
        registration_finding(ctx, vehicle),
        flag_finding(
            ctx,
            "tachograph",
            vehicle.tachograph_ok,
            "vehicle.tachograph_ok",
            "Tacógrafo em perfeito funcionamento",
            "Tacógrafo ausente ou sem perfeito funcionamento",
            "art13_incIV",
        ),
        door_finding(ctx, facts),
        flag_finding(
            ctx,
            "inspection",
            vehicle.detran_inspection_approved,
            "vehicle.detran_inspection_approved",
            "Aprovado na vistoria do órgão de trânsito (DETRAN), exigida antes de prestar o serviço",
            "Sem comprovante de aprovação em vistoria do órgão de trânsito (DETRAN)",
            "art15",
        ),
    ]


def attendant_finding(ctx: Context, facts: PermitApplication) -> Finding:
    """Art. 13 VI: an attendant meeting its requirements when carrying children up to 3 years or PcD."""
    needed = ctx.require(facts.carries_children_under_4_or_pcd, "carries_children_under_4_or_pcd")
    if not needed:
        return ctx.finding(
            "attendant",
            Status.NOT_APPLICABLE,
            "Não transporta crianças de até 3 anos nem pessoas com deficiência",
            cites=("art13_incVI",),
        )
    for index, attendant in enumerate(facts.attendants):
        checks = attendant_findings(ctx, attendant.person, f"attendants[{index}].person")
        if all(c.status is not Status.NOT_MET for c in checks):
            return ctx.finding(
                "attendant",
                Status.MET,
                "Auxiliar de embarque e desembarque habilitado",
                cites=("art13_incVI",),
            )
    return ctx.finding(
        "attendant",
        Status.NOT_MET,
        "Transporta crianças de até 3 anos ou pessoas com deficiência "
        "sem auxiliar de embarque que atenda ao art. 13, VI",
        cites=("art13_incVI",),
        counterfactual="seria atendido com auxiliar maior de 18 anos e com certidão negativa de "
        "distribuição criminal",
    )


def operator_findings(ctx: Context, facts: PermitApplication) -> list[Finding]:
    """The holder's own requirements: the same for every vehicle of theirs (computed once in a bulk run)."""
    shared = ctx.shared(
        "operator_findings",
        (facts.operator,),
        facts.filed_on,
        lambda: _operator_findings(ctx, facts.operator, facts.filed_on),
    )
    return list(shared)


def _operator_findings(ctx: Context, operator: Operator, filed_on: dt.date | None) -> list[Finding]:
    if operator.kind == "PF":
        person = ctx.require(operator.person, "operator.person")
        findings = art9_personal_findings(ctx, person, "operator.person", filed_on=filed_on)
    else:
        findings = pj_company_findings(ctx, ctx.require(operator.company, "operator.company"))
    return [*findings, ban_finding(ctx, operator)]


def quota_findings(ctx: Context, facts: PermitApplication) -> list[Finding]:
    """Art. 2: a PF holds one alvará and names one auxiliary driver; a PJ has no limit.

    The same for every vehicle of the operator asked with as many auxiliary drivers (computed once in a bulk
    run)."""
    operator: Operator = facts.operator
    auxiliaries = sum(1 for d in facts.drivers if d.role == "auxiliary")
    key = (facts.kind, auxiliaries)
    shared = ctx.shared("quota_findings", (operator,), key, lambda: _quota_findings(ctx, operator, *key))
    return list(shared)


def _quota_findings(ctx: Context, operator: Operator, kind: str, auxiliaries: int) -> list[Finding]:
    if operator.kind == "PJ":
        return [
            ctx.finding(
                "pf_quota", Status.NOT_APPLICABLE, "Pessoa jurídica: sem limite de veículos", cites=("art2",)
            )
        ]
    max_permits, max_aux = int(ctx.param("pf_max_permits")), int(ctx.param("pf_max_auxiliary_drivers"))
    permits_after = operator.active_permits + (1 if kind == "new" else 0)
    return [
        ctx.finding(
            "pf_quota",
            Status.MET if permits_after <= max_permits else Status.NOT_MET,
            f"Pessoa física com {permits_after} alvará(s) após o pedido (máximo {max_permits})",
            cites=("art2",),
        ),
        ctx.finding(
            "auxiliary_quota",
            Status.MET if auxiliaries <= max_aux else Status.NOT_MET,
            f"{auxiliaries} condutor(es) auxiliar(es) indicado(s) (máximo {max_aux})",
            cites=("art2", "art8"),
        ),
    ]


def driver_findings(ctx: Context, facts: PermitApplication) -> list[Finding]:
    """Each named driver: auxiliary by art. 8 sole § (art. 9 requirements), employee of a PJ by art. 11."""
    findings: list[Finding] = []
    for index, driver in enumerate(facts.drivers):
        field = f"drivers[{index}].person"
        if driver.role == "employee":
            checks = art11_findings(ctx, driver.person, field, facts.filed_on)
        else:
            checks = art9_personal_findings(
                ctx, driver.person, field, prefix=("art8_parun",), filed_on=facts.filed_on
            )
        findings += [dataclasses.replace(c, code=f"drivers[{index}].{c.code}") for c in checks]
    return findings


def permit_end(ctx: Context, facts: PermitApplication) -> dt.date:
    """Alvará valid 12 months date to date (art. 13, "anualmente"); a temporary one up to 30 days (art. 14).

    The same for every application of the same kind on the same day: a bulk run counts it once per Config."""
    kind = facts.kind
    return ctx.shared("permit_end", (), kind, lambda: _permit_end(ctx, kind))


def _permit_end(ctx: Context, kind: str) -> dt.date:
    if kind == "temporary":
        return ctx.as_of + dt.timedelta(days=int(ctx.param("temporary_vehicle_max_days")))
    months = int(ctx.param("permit_validity_months"))
    return count_months(
        ctx.as_of,
        months,
        rounding=MonthRounding.LAST_DAY_OF_MONTH,
        calendar=ctx.calendar,
        extend_to_business_day=False,
    ).end


def scope_result(ctx: Context) -> RuleResult:
    finding = ctx.finding(
        "law_scope",
        Status.NOT_APPLICABLE,
        "Veículo licenciado em outro município em "
        "transporte intermunicipal para escolas fora de Olímpia: fora do âmbito da lei",
        cites=("art17",),
    )
    # The question has no "not applicable" outcome: no municipal alvará can be issued under this law.
    return RuleResult(
        "denied",
        [finding],
        {"outside_scope": True},
        "Fora do âmbito da Lei 5.171/2025 (art. 17): não há alvará municipal a expedir.",
    )


def kind_finding(ctx: Context, facts: PermitApplication) -> Finding:
    if facts.kind == "substitution":
        return ctx.finding(
            "kind",
            Status.INFO,
            "Substituição de veículo: novo alvará com os documentos do novo veículo",
            cites=("art19", "art19_incII", "art19_incIII", "art19_incIV", "art19_incV", "art20"),
        )
    if facts.kind == "temporary":
        return ctx.finding(
            "kind", Status.INFO, "Autorização temporária de outro veículo, após vistoria", cites=("art14",)
        )
    return ctx.finding("kind", Status.INFO, "Alvará anual do veículo", cites=("art13",))


def permit_checks(ctx: Context, facts: PermitApplication) -> tuple[Finding, ...]:
    """Vehicle, attendant, operator, quotas and drivers, in the order the decision lists them."""
    return (
        *vehicle_findings(ctx, facts, facts.operator.kind == "PF"),
        attendant_finding(ctx, facts),
        *operator_findings(ctx, facts),
        *quota_findings(ctx, facts),
        *driver_findings(ctx, facts),
    )


VEHICLE_PERMIT_CITES = (
    "art10",
    *PEOPLE_CITES,
    *BAN_CITES,
    *TRANSITION_CITES,
    "art2",
    "art8",
    "art9_incXI",
    "art9_incXII",
    "art9_incXIII",
    "art9_incXIV",
    "art10_incII",
    "art10_incIII",
    "art10_incIV",
    "art10_incV",
    "art10_incVI",
    "art10_incVII",
    "art10_incVIII",
    "art10_incIX",
    "art12",
    "art13",
    "art13_incI",
    "art13_incII",
    "art13_incIII",
    "art13_incIV",
    "art13_incV",
    "art13_incVI",
    "art14",
    "art15",
    "art17",
    "art19",
    "art19_incII",
    "art19_incIII",
    "art19_incIV",
    "art19_incV",
    "art20",
    "ctb:art136",
)


@rule("vehicle_permit", cites=VEHICLE_PERMIT_CITES)
def vehicle_permit(ctx: Context, facts: PermitApplication) -> RuleResult:
    vehicle = facts.vehicle
    if facts.intermunicipal_outside_schools and not is_olimpia(vehicle.registration_municipality):
        return scope_result(ctx)
    age_finding, age_cap, age = vehicle_age_finding(ctx, vehicle)
    kind = kind_finding(ctx, facts)
    # The subject's other checks: a what-if that changes nothing they read (the age limit) reuses them.
    checks = ctx.shared(
        "vehicle_permit_checks", (facts,), None, lambda: permit_checks(ctx, facts), brief=True
    )
    findings = [kind, age_finding, *checks]
    caps = [age_cap] if age_cap else []
    if provider_is_incumbent(ctx, facts.operator, vehicle):
        adjusted = [with_transition(ctx, f) for f in findings]
        findings = [f for f, _ in adjusted]
        caps += [cap for _, cap in adjusted if cap is not None]
    valid_until = min([permit_end(ctx, facts), *caps])
    return eligibility(findings, {"vehicle_age_years": age}, if_granted={"valid_until": valid_until})
