"""The permit holder's and the auxiliary's personal requirements (arts. 2º, 3º, 8º, 10 §§ 3º–4º).

The auxiliary meets every requirement made of permit holders (art. 10 §§ 3º and 4º), so both go through
``person_findings``; what differs is only the article that sends the auxiliary here.
"""

from __future__ import annotations

from lawcode.blocks.limits import Bound, minimum_years
from lawcode.context import Context
from lawcode.decision import Finding, Status
from lawcode.facts import Person

from .common import br, document_state, is_sjc

AGE_BOUND = {
    "day_after_18th_birthday": Bound.STRICT,
    "nineteen_completed": Bound.STRICT_COMPLETED,
    "eighteen_completed": Bound.INCLUSIVE,
}
# Art. 3º personal documents (documents.yaml) and the inciso asking for each.
PERSONAL_DOCUMENTS = (
    ("identity_document", "art3_incI", "Carteira de identidade"),
    ("criminal_record_certificate", "art3_incIII", "Atestado de antecedentes criminais"),
    ("cnh_record_certificate", "art3_incVI", "Certidão de prontuário da CNH"),
    ("municipal_tax_clearance", "art3_incIX", "Certidão negativa de débitos municipais"),
)
PERSON_CITES = (
    "art2", "art3", "art3_incI", "art3_incII", "art3_incIII", "art3_incVI", "art3_incVIII", "art3_incIX", "art8",
    "ctb:art147_par5",
)  # fmt: skip


def person_findings(ctx: Context, person: Person, where: str) -> list[Finding]:
    """Residence, age, CNH with EAR and the personal documents of art. 3º."""
    return [
        residence_finding(ctx, person),
        age_finding(ctx, person, where),
        *cnh_findings(ctx, person),
        *(document_finding(ctx, person, kind, cite, label) for kind, cite, label in PERSONAL_DOCUMENTS),
    ]


def residence_finding(ctx: Context, person: Person) -> Finding:
    resident = is_sjc(person.resident_municipality)
    where = person.resident_municipality or "não informado"
    return ctx.finding(
        "residence",
        Status.MET if resident else Status.NOT_MET,
        f"Residente no Município (informado: {where})" if resident else f"Não reside no Município ({where})",
        cites=("art2", "art8"),
        counterfactual=None if resident else "seria atendido com residência em São José dos Campos",
    )


def age_finding(ctx: Context, person: Person, where: str) -> Finding:
    birth = ctx.require(person.birth_date, f"{where}.birth_date")
    bound = AGE_BOUND[ctx.interpretation("INT-SJC-MIN-AGE")]
    limit = minimum_years(birth, ctx.as_of, int(ctx.param("min_age")), bound=bound)
    return ctx.finding(
        "age",
        Status.MET if limit.ok else Status.NOT_MET,
        limit.describe_pt("Idade"),
        cites=("art3_incVIII",),
        counterfactual=None if limit.ok else f"seria atendido a partir de {br(limit.met_from)}",
    )


def cnh_findings(ctx: Context, person: Person) -> list[Finding]:
    """Art. 3º II: a CNH "conforme Lei de Trânsito", current; art. 2º: a professional driver (EAR)."""
    cnh = person.cnh
    if cnh is None:
        return [ctx.finding("cnh", Status.NOT_MET, "CNH não apresentada", cites=("art3_incII",))]
    expired = cnh.expiry is not None and cnh.expiry < ctx.as_of
    findings = [
        ctx.finding(
            "cnh",
            Status.NOT_MET if expired else Status.MET,
            f"CNH categoria {cnh.category}"
            + (f", vencida em {br(cnh.expiry)}" if expired and cnh.expiry else " apresentada e em vigor"),
            cites=("art3_incII",),
        )
    ]
    if ctx.interpretation("INT-SJC-AUTONOMOUS-DRIVER") == "analyst_review":
        findings.append(
            ctx.finding(
                "professional_driver",
                Status.WARNING,
                "A condição de motorista profissional autônomo é verificada pelo analista no processo",
                cites=("art2",),
            )
        )
        return findings
    findings.append(
        ctx.finding(
            "professional_driver",
            Status.MET if cnh.ear else Status.NOT_MET,
            "CNH com a observação EAR (exerce atividade remunerada): motorista profissional"
            if cnh.ear
            else "CNH sem a observação EAR: não comprova ser motorista profissional",
            cites=("art2", "art3_incII", "ctb:art147_par5"),
            counterfactual=None if cnh.ear else "seria atendido com a CNH anotada com EAR",
        )
    )
    return findings


def document_finding(ctx: Context, person: Person, kind: str, cite: str, label: str) -> Finding:
    accepted, why = document_state(person.document(kind), ctx.as_of)
    return ctx.finding(
        f"document_{kind}",
        Status.MET if accepted else Status.NOT_MET,
        f"{label}: {why}",
        cites=(cite,),
    )
