"""When the law is in force (art. 22 and the Lei 6.151/2018 wording) and the operator's registration
(art. 1º parágrafo único, art. 1º-A, art. 3º).
"""

from __future__ import annotations

from typing import Any

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.facts import LawInForceFacts, Operator
from lawcode.regime import rule

from .common import (
    AMENDMENT_KEY,
    PUBLISHED_ON,
    amended,
    amendment_in_force_from,
    br,
    months_later,
    operator_document,
    wording_date,
)

ALVARA = "Alvará de Licença"
CLI = "Certificado de Licenciamento Integrado (CLI)"
TERMO = "Termo de Autorização"


@rule("law_in_force", cites=("art22", "art1A", "art4_par2"))
def law_in_force(ctx: Context, facts: LawInForceFacts) -> RuleResult:
    amendment_from = amendment_in_force_from(ctx)
    result: dict[str, Any] = {
        "in_force": ctx.as_of >= PUBLISHED_ON,
        "in_force_from": PUBLISHED_ON,
        "amendment_in_force_from": amendment_from,
    }
    if ctx.as_of < PUBLISHED_ON:
        finding = ctx.finding(
            "law_in_force",
            Status.NOT_MET,
            f"A Lei 5.722/2015 entra em vigor em {br(PUBLISHED_ON)}, data da publicação",
            cites=("art22",),
            on=PUBLISHED_ON,
        )
        return RuleResult("not_in_force", [finding], result)
    result["wording"] = AMENDMENT_KEY if amended(ctx) else "original"
    findings = [
        ctx.finding("law_in_force", Status.INFO, f"Em vigor desde {br(PUBLISHED_ON)}", cites=("art22",)),
        _amendment(ctx),
    ]
    if not amended(ctx):
        findings.append(_original_transition(ctx))
    return RuleResult("in_force", findings, result)


def _amendment(ctx: Context) -> Finding:
    start = amendment_in_force_from(ctx)
    if amended(ctx):
        message = f"Vigora a redação dada pela Lei 6.151/2018 desde {br(start)}"
    else:
        message = f"Vigora a redação original; a da Lei 6.151/2018 passa a valer em {br(start)}"
    return ctx.finding(
        "amendment_lei6151_2018", Status.INFO, message, cites=("art1A",), on=max(start, ctx.as_of)
    )


def _original_transition(ctx: Context) -> Finding:
    months = int(ctx.param_on("transition_replacement_months", wording_date(ctx)))
    until = months_later(PUBLISHED_ON, months)
    return ctx.finding(
        "transition_art4_par2",
        Status.INFO,
        "Transição da redação original do art. 4º, § 2º: "
        f"veículos cadastrados com mais de 15 anos devem ser substituídos até {br(until)}",
        cites=("art4_par2",),
        on=wording_date(ctx),
    )


@rule("operator_registration", cites=("art1_parun", "art1A", "art1A_par1", "art3"))
def operator_registration(ctx: Context, facts: Operator) -> RuleResult:
    documents = [ALVARA if facts.kind == "PF" else CLI]
    message = f"Documento de autorização: {documents[0]}"
    findings = [
        _registration(ctx, facts),
        ctx.finding("authorization_document", Status.INFO, message, cites=("art3",), on=wording_date(ctx)),
    ]
    result: dict[str, Any] = {"authorization_documents": documents}
    if amended(ctx):
        documents.insert(0, TERMO)
        result["activity_only_after_alvara"] = True
        message = (
            "Desde a Lei 6.151/2018 a autorização é dada por Termo de Autorização e Alvará de Licença; "
            "a atividade só começa após a expedição do Alvará"
        )
        findings.append(ctx.finding("termo_and_alvara", Status.INFO, message, cites=("art1A", "art1A_par1")))
    return eligibility(findings, result)


def _registration(ctx: Context, facts: Operator) -> Finding:
    registration = operator_document(facts, "municipal_registration")
    cadastro = "Cadastro de Veículo de Transporte de Passageiros da Prefeitura (transporte escolar)"
    if registration is not None and registration.valid is not False:
        return ctx.finding(
            "municipal_registration",
            Status.MET,
            f"Inscrito no {cadastro}",
            cites=("art1_parun",),
            on=wording_date(ctx),
        )
    return ctx.finding(
        "municipal_registration",
        Status.NOT_MET,
        f"Sem inscrição no {cadastro}",
        cites=("art1_parun",),
        on=wording_date(ctx),
        counterfactual="seria deferido após a inscrição no cadastro municipal",
    )
