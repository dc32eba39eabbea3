"""``document_validity``: is a document the law requires accepted on ``as_of``, and until when?

``fresh_until`` is the last day a certificate may be *presented* (art. 4 I e, "menos de 60 dias");
``valid_until`` the last day before it must be renewed (yearly, art. 4 I e and i) or its own expiry.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.errors import InvalidFactError
from lawcode.facts import Document
from lawcode.regime import rule

from .certificates import atestado_needs_freshness, fresh_until, renewal_due, toxicology_valid_until
from .common import DEADLINE_CITES, br, detail_flag, require_issue_date

# kind → dispositivo that requires it (documents with their own expiry or none).
PLAIN_DOCUMENTS = {
    "platform_registration": "art4_incI_a",
    "alvara_fee_receipt": "art4_incI_c",
    "inspection_fee_receipt": "art8",
    "cnh": "art4_incI_b",
    "crlv": "art4_incI_d",
    "lease_contract": "art6_parun",
    "comodato_contract": "art6_parun",
    "platform_exclusivity_pledge": "art4_incI_f",
    "inss_registration": "art4_incI_g",
    "municipal_registration": "art4_incI_j",
    "maintenance_record": "art9_incII",
}
CERTIFICATES = ("criminal_distribution_certificate", "criminal_record_certificate", "toxicology_exam")


@rule(
    "document_validity",
    cites=(
        "art4_incI_a",
        "art4_incI_b",
        "art4_incI_c",
        "art4_incI_d",
        "art4_incI_e",
        "art4_incI_f",
        "art4_incI_g",
        "art4_incI_h",
        "art4_incI_i",
        "art4_incI_j",
        "art6_parun",
        "art8",
        "art9_incII",
        *DEADLINE_CITES,
    ),
)
def document_validity(ctx: Context, facts: Document) -> RuleResult:
    if facts.kind in CERTIFICATES:
        return _certificate(ctx, facts)
    if facts.kind == "app_insurance":
        return _insurance(ctx, facts)
    if facts.kind in PLAIN_DOCUMENTS:
        return _plain(ctx, facts, PLAIN_DOCUMENTS[facts.kind])
    raise InvalidFactError(
        "kind", f"Lei 5.832/2025 does not require {ctx.regime.vocabulary.documents.label(facts.kind)!r}"
    )


def _certificate(ctx: Context, document: Document) -> RuleResult:
    issued = require_issue_date(ctx, document, "document")
    cite = "art4_incI_i" if document.kind == "toxicology_exam" else "art4_incI_e"
    fresh = _presentation_limit(ctx, document, issued)
    valid = (
        toxicology_valid_until(ctx, issued)
        if document.kind == "toxicology_exam"
        else renewal_due(ctx, issued)
    )
    findings = [_validity_finding(ctx, document, valid, cite)]
    if issued > ctx.as_of:
        raise InvalidFactError(
            "document.issue_date", f"issued after the date evaluated ({ctx.as_of.isoformat()})"
        )
    if fresh is not None:
        ok = ctx.as_of <= fresh
        findings.append(
            ctx.finding(
                "freshness",
                Status.MET if ok else Status.NOT_MET,
                f"Expedido em {br(issued)}: pode ser apresentado até {br(fresh)}.",
                cites=(cite,),
            )
        )
    return eligibility(findings, {"fresh_until": fresh, "valid_until": valid})


def _presentation_limit(ctx: Context, document: Document, issued: dt.date) -> dt.date | None:
    if document.kind == "criminal_distribution_certificate":
        return fresh_until(ctx, issued)
    if document.kind == "criminal_record_certificate" and atestado_needs_freshness(ctx):
        return fresh_until(ctx, issued)
    return None


def _insurance(ctx: Context, document: Document) -> RuleResult:
    expiry = ctx.require(document.expiry_date, "document.expiry_date")
    findings = [_validity_finding(ctx, document, expiry, "art4_incI_h")]
    covered = detail_flag(ctx, document, "third_party_bodily_coverage", "document")
    findings.append(
        ctx.finding(
            "third_party_coverage",
            Status.MET if covered else Status.NOT_MET,
            "Cobertura de danos corporais a terceiros: " + ("sim." if covered else "não."),
            cites=("art4_incI_h",),
        )
    )
    return eligibility(findings, {"fresh_until": None, "valid_until": expiry})


def _plain(ctx: Context, document: Document, cite: str) -> RuleResult:
    finding = _validity_finding(ctx, document, document.expiry_date, cite)
    return eligibility([finding], {"fresh_until": None, "valid_until": document.expiry_date})


def _validity_finding(ctx: Context, document: Document, until: dt.date | None, cite: str) -> Finding:
    label = ctx.regime.vocabulary.documents.label(document.kind)
    ok = document.valid is not False and (until is None or ctx.as_of <= until)
    if until is None:
        message = f"{label}: " + ("aceito; sem prazo de validade." if ok else "marcado como inválido.")
    else:
        message = f"{label}: válido até {br(until)}" + ("." if ok else " — vencido ou inválido.")
    return ctx.finding(
        "validity", Status.MET if ok else Status.NOT_MET, message, cites=(cite,), data={"valid_until": until}
    )
