"""Documents the law asks for (art. 3º) and whether each is accepted on a date.

The law fixes no freshness for any of them: a document is accepted while presented, not declared invalid (a
positive criminal record) and not expired.
"""

from __future__ import annotations

from lawcode.context import Context
from lawcode.decision import RuleResult, Status, eligibility
from lawcode.errors import InvalidFactError
from lawcode.facts import Document
from lawcode.regime import rule

from .common import document_state

DOCUMENT_CITES = {
    "identity_document": "art3_incI",
    "cnh": "art3_incII",
    "criminal_record_certificate": "art3_incIII",
    "cnh_record_certificate": "art3_incVI",
    "crv": "art3_incVII",
    "crlv": "art3_incVII",
    "municipal_tax_clearance": "art3_incIX",
}


@rule("document_validity", cites=tuple(dict.fromkeys(DOCUMENT_CITES.values())))
def document_validity(ctx: Context, facts: Document) -> RuleResult:
    cite = DOCUMENT_CITES.get(facts.kind)
    if cite is None:
        raise InvalidFactError(
            "kind",
            f"Lei 8.698/2012 (São José dos Campos) does not ask for {facts.kind!r}; it asks for: "
            + ", ".join(DOCUMENT_CITES),
            problem_pt="a Lei 8.698/2012 (São José dos Campos) não exige este documento para o regime",
        )
    accepted, why = document_state(facts, ctx.as_of)
    finding = ctx.finding(
        "document", Status.MET if accepted else Status.NOT_MET, f"Documento {why}", cites=(cite,)
    )
    return eligibility([finding], {"valid_until": facts.expiry_date, "fresh_until": None})
