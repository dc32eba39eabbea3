"""Registration questions: operator (arts. 6, 9, 10), driver (arts. 8, 9, 11), attendant (art. 13 VI),
ban status (arts. 26-27) and document validity."""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.errors import InvalidFactError
from lawcode.facts import Attendant, Company, Document, Driver, Operator, Person
from lawcode.regime import rule

from .bans import BAN_CITES, active_ban, ban_article, ban_finding, ban_status_findings
from .common import br, detail_flag, document_finding, is_olimpia
from .people import (
    ART9_PERSONAL_CITES,
    ART11_CITES,
    ATTENDANT_CITES,
    AUXILIARY_CITES,
    art9_personal_findings,
    art11_findings,
    attendant_findings,
)
from .transitions import TRANSITION_CITES, provider_is_incumbent, with_transition

PF_VEHICLE_DOCUMENTS = (
    ("crlv", "art9_incXII"),
    ("app_insurance", "art9_incXIII"),
    ("detran_school_authorization", "art9_incXIV"),
)
PJ_VEHICLE_DOCUMENTS = (
    ("crlv", "art10_incVII"),
    ("app_insurance", "art10_incVIII"),
    ("detran_school_authorization", "art10_incIX"),
)


def optional_crv_finding(ctx: Context, document: Document | None, cite: str) -> Finding:
    """CRV "quando cabível": its absence only warns (the vehicle may be held under art. 12)."""
    if document is not None and document.valid is not False:
        return ctx.finding("crv", Status.MET, "CRV apresentado", cites=(cite,))
    return ctx.finding(
        "crv",
        Status.WARNING,
        "CRV não apresentado: exigível quando o veículo for próprio; "
        "caso contrário, apresentar o contrato do art. 12",
        cites=(cite, "art12"),
    )


def pf_operator_findings(ctx: Context, person: Person) -> list[Finding]:
    findings = art9_personal_findings(ctx, person, "person")
    findings.append(optional_crv_finding(ctx, person.document("crv"), "art9_incXI"))
    findings += [
        document_finding(ctx, kind, person.document(kind), kind, cites=(cite,))
        for kind, cite in PF_VEHICLE_DOCUMENTS
    ]
    return findings


def company_seat_finding(ctx: Context, company: Company) -> Finding:
    cites = ("art6", "art10", "art10_incV")
    seat = ctx.require(company.seat_municipality, "company.seat_municipality")
    proof = company.document("company_seat_proof")
    if is_olimpia(seat) and proof is not None and proof.valid is not False:
        return ctx.finding("company_seat", Status.MET, f"Sede em {seat}, comprovada", cites=cites)
    problem = f"sede em {seat}" if not is_olimpia(seat) else "comprovante de sede não apresentado"
    return ctx.finding(
        "company_seat",
        Status.NOT_MET,
        f"A pessoa jurídica deve ter sede em Olímpia: {problem}",
        cites=cites,
        counterfactual="seria atendido com sede comprovada em Olímpia",
    )


def flagged_document_finding(
    ctx: Context, company: Company, kind: str, flag: str, cite: str, what: str
) -> Finding:
    """A company document that must mention an activity (details[flag] true)."""
    document = company.document(kind)
    base = document_finding(ctx, kind, document, kind, cites=(cite,))
    if base.status is not Status.MET or detail_flag(document, flag) is True:
        return base
    return ctx.finding(
        kind,
        Status.NOT_MET,
        f"O documento não menciona {what}",
        cites=(cite,),
        counterfactual=f"seria atendido com documento que mencione {what}",
    )


def pj_company_findings(ctx: Context, company: Company) -> list[Finding]:
    """Art. 10 II–V: the company itself (CNPJ and contract naming the activity, taxes, seat in Olímpia)."""
    tax = "municipal_tax_clearance"
    return [
        flagged_document_finding(
            ctx,
            company,
            "cnpj_card",
            "mentions_school_transport",
            "art10_incII",
            "a atividade de transporte escolar",
        ),
        flagged_document_finding(
            ctx,
            company,
            "articles_of_association",
            "mentions_transport",
            "art10_incIII",
            "a atividade de transporte",
        ),
        document_finding(ctx, tax, company.document(tax), tax, cites=("art10_incIV",)),
        company_seat_finding(ctx, company),
    ]


def pj_operator_findings(ctx: Context, company: Company) -> list[Finding]:
    """Art. 10: the company (II–V) and its vehicle's documents (VI–IX)."""
    findings = pj_company_findings(ctx, company)
    findings.append(optional_crv_finding(ctx, company.document("crv"), "art10_incVI"))
    findings += [
        document_finding(ctx, kind, company.document(kind), kind, cites=(cite,))
        for kind, cite in PJ_VEHICLE_DOCUMENTS
    ]
    return findings


OPERATOR_CITES = (
    *ART9_PERSONAL_CITES,
    *TRANSITION_CITES,
    *BAN_CITES,
    "art9_incXI",
    "art9_incXII",
    "art9_incXIII",
    "art9_incXIV",
    "art12",
    "art10",
    "art10_incII",
    "art10_incIII",
    "art10_incIV",
    "art10_incV",
    "art10_incVI",
    "art10_incVII",
    "art10_incVIII",
    "art10_incIX",
)


@rule("operator_registration", cites=OPERATOR_CITES)
def operator_registration(ctx: Context, operator: Operator) -> RuleResult:
    """Art. 9 (PF) or art. 10 (PJ), plus the bans of arts. 26-27 and, for providers already active when the
    law took effect, the art. 40 transitions."""
    if operator.kind == "PF":
        findings = pf_operator_findings(ctx, ctx.require(operator.person, "person"))
    else:
        findings = pj_operator_findings(ctx, ctx.require(operator.company, "company"))
    findings.append(ban_finding(ctx, operator))
    if provider_is_incumbent(ctx, operator):
        findings = [with_transition(ctx, finding)[0] for finding in findings]
    return eligibility(findings)


@rule("driver_registration", cites=(*ART9_PERSONAL_CITES, *AUXILIARY_CITES, *ART11_CITES))
def driver_registration(ctx: Context, driver: Driver) -> RuleResult:
    """Principal (art. 9), auxiliary (art. 8 sole §: the same requirements) or employee of a PJ (art. 11)."""
    if driver.role == "employee":
        return eligibility(art11_findings(ctx, driver.person, "person"))
    if driver.role == "auxiliary":
        return eligibility(art9_personal_findings(ctx, driver.person, "person", prefix=("art8_parun",)))
    if driver.role == "principal":
        return eligibility(art9_personal_findings(ctx, driver.person, "person"))
    return eligibility(
        [
            ctx.finding(
                "role",
                Status.NOT_MET,
                "A Lei 5.171/2025 não prevê condutor eventual: só o "
                "principal, o auxiliar (art. 8º) e o vinculado a pessoa jurídica (art. 11)",
                cites=("art8", "art11"),
            )
        ]
    )


@rule("attendant_registration", cites=ATTENDANT_CITES)
def attendant_registration(ctx: Context, attendant: Attendant) -> RuleResult:
    return eligibility(attendant_findings(ctx, attendant.person, "person"))


@rule("ban_status", cites=BAN_CITES)
def ban_status(ctx: Context, operator: Operator) -> RuleResult:
    ban = active_ban(operator, ctx.as_of)
    result = {
        "banned": ban is not None,
        "until": ban.until if ban else None,
        "reason": ban_article(ban) if ban else None,
    }
    return RuleResult("banned" if ban else "not_banned", ban_status_findings(ctx, operator), result)


DOCUMENT_CITES = {
    "school_transport_course": "art9_incIV",
    "address_proof": "art9_incV",
    "municipal_registration": "art9_incVI",
    "municipal_tax_clearance": "art9_incVII",
    "no_gravissima_proof": "art9_incVIII",
    "criminal_record_certificate": "art9_incIX",
    "criminal_distribution_certificate": "art9_incIX",
    "detran_fines_clearance": "art9_incX",
    "crv": "art9_incXI",
    "crlv": "art9_incXII",
    "app_insurance": "art9_incXIII",
    "detran_school_authorization": "art9_incXIV",
    "cnpj_card": "art10_incII",
    "articles_of_association": "art10_incIII",
    "company_seat_proof": "art10_incV",
    "employment_contract": "art11_incII",
    "comodato_contract": "art12",
    "lease_contract": "art12",
}


@rule("document_validity", cites=tuple(sorted(set(DOCUMENT_CITES.values()))))
def document_validity(ctx: Context, document: Document) -> RuleResult:
    """Accepted on as_of? Criminal certificates must also be fresh (art. 9 IX: at most 60 days since issue)."""
    cite = DOCUMENT_CITES.get(document.kind)
    if cite is None:
        raise InvalidFactError("kind", f"a Lei 5.171/2025 não exige o documento {document.kind!r}")
    findings = [document_finding(ctx, "document", document, document.kind, cites=(cite,))]
    result: dict[str, object] = {"valid_until": document.expiry_date, "fresh_until": None}
    if cite == "art9_incIX":
        fresh_until = certificate_fresh_until(ctx, ctx.require(document.issue_date, "issue_date"))
        result["fresh_until"] = fresh_until
        status = Status.MET if ctx.as_of <= fresh_until else Status.NOT_MET
        findings.append(
            ctx.finding("freshness", status, f"Certidão aceita até {br(fresh_until)}", cites=(cite,))
        )
    return eligibility(findings, result)


def certificate_fresh_until(ctx: Context, issued: dt.date) -> dt.date:
    days = int(ctx.param("certificate_max_age_days"))
    inclusive = ctx.interpretation("INT-OLI-CERTIFICATE-AGE-BOUNDARY") == "inclusive"
    return issued + dt.timedelta(days=days if inclusive else days - 1)
