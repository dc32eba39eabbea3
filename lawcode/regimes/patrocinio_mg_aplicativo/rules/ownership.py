"""Who may register the vehicle: art. 4 I d ("em nome do condutor, ou contrato de arrendamento, locação ou
comodato") and art. 6 with its parágrafo único (written contract with the owner's notarized signature).

Art. 6 lists "locador ou comodante" — the parties who *lend* the car; INT-PAT-ART6-ROLES decides whether it
means the driver who uses someone else's vehicle (locatário, comodatário) or is read literally.
"""

from __future__ import annotations

from lawcode.context import Context
from lawcode.decision import Finding
from lawcode.facts import Ownership, Vehicle

from .common import check

ART6_ROLES = "INT-PAT-ART6-ROLES"
OWN_KINDS = {"own": "proprietário", "fiduciary": "fiduciante (alienação fiduciária)"}
CONTRACT_KINDS = {"lease": "arrendatário", "rental": "locatário", "comodato": "comodatário"}
LITERAL_KINDS = {"own", "fiduciary", "lease"}
CONTRACT_DOCUMENT = {"lease": "lease_contract", "rental": "lease_contract", "comodato": "comodato_contract"}


def ownership_findings(ctx: Context, vehicle: Vehicle) -> list[Finding]:
    ownership = ctx.require(vehicle.ownership, "vehicle.ownership")
    accepted = _accepted_kinds(ctx)
    label = OWN_KINDS.get(ownership.kind) or CONTRACT_KINDS.get(ownership.kind) or ownership.kind
    ok = ownership.kind in accepted
    message = (
        f"Veículo cadastrado em nome do condutor {label}."
        if ok
        else f"O art. 6 não admite o cadastro do veículo pelo condutor na condição de '{label}'."
    )
    findings = [
        check(
            ctx,
            "ownership",
            ok,
            message,
            cites=("art6", "art4_incI_d"),
            counterfactual="seria deferido com o veículo em nome do condutor",
        )
    ]
    if ok and ownership.kind in CONTRACT_KINDS:
        findings.append(_contract_finding(ctx, vehicle, ownership))
    return findings


def _accepted_kinds(ctx: Context) -> set[str]:
    if ctx.interpretation(ART6_ROLES) == "literal":
        return LITERAL_KINDS
    return set(OWN_KINDS) | set(CONTRACT_KINDS)


def _contract_finding(ctx: Context, vehicle: Vehicle, ownership: Ownership) -> Finding:
    has_contract = vehicle.document(CONTRACT_DOCUMENT[ownership.kind]) is not None
    notarized = ctx.require(
        ownership.owner_signature_notarized, "vehicle.ownership.owner_signature_notarized"
    )
    ok = has_contract and notarized
    if ok:
        message = "Contrato escrito apresentado, com firma reconhecida do proprietário autorizando o uso no serviço."
    elif not has_contract:
        message = "Não apresentou o contrato de arrendamento, locação ou comodato do veículo."
    else:
        message = "O contrato não tem a firma do proprietário reconhecida."
    return check(
        ctx,
        "ownership_contract",
        ok,
        message,
        cites=("art4_incI_d", "art6_parun"),
        counterfactual="seria deferido com contrato escrito e firma reconhecida do proprietário",
    )
