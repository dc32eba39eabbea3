"""Driver registration: art. 4 I a–j (except d, which is about the vehicle) and art. 4 §3.

A document that was not presented is a requirement not met (not a missing fact); a fact the rule needs to
decide — the CNH, whether the driver holds a permit elsewhere — raises MissingFactError when absent.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.errors import InvalidFactError
from lawcode.facts import CNH, Document, Driver, Person
from lawcode.regime import rule

from .certificates import COURTS, atestado_needs_freshness, fresh_until, renewal_due, toxicology_valid_until
from .common import (
    DEADLINE_CITES,
    br,
    check,
    detail_flag,
    is_usable,
    require_issue_date,
    with_cure_window,
    within,
    years_later,
)

CNH_ISSUE_DATE = "INT-PAT-CNH-ISSUE-DATE"
QUALIFYING_CATEGORIES = frozenset("BCDE")
# Documents whose presentation is the whole requirement: kind → (finding code, dispositivo, what, pt-BR).
PRESENCE = (
    (
        "platform_registration",
        "platform_registration",
        "art4_incI_a",
        "certidão ou documento de identificação da plataforma em que está cadastrado",
    ),
    ("alvara_fee_receipt", "alvara_fee", "art4_incI_c", "pagamento da taxa de alvará"),
    (
        "platform_exclusivity_pledge",
        "exclusivity_pledge",
        "art4_incI_f",
        "compromisso de prestar o serviço exclusivamente por plataformas tecnológicas",
    ),
    (
        "inss_registration",
        "inss_registration",
        "art4_incI_g",
        "inscrição no INSS como contribuinte individual",
    ),
    (
        "municipal_registration",
        "municipal_registration",
        "art4_incI_j",
        "inscrição na Secretaria Municipal de Finanças como prestador de serviços",
    ),
)


@rule(
    "driver_registration",
    cites=(
        "art4",
        "art4_incI",
        "art4_incI_a",
        "art4_incI_b",
        "art4_incI_c",
        "art4_incI_e",
        "art4_incI_f",
        "art4_incI_g",
        "art4_incI_h",
        "art4_incI_i",
        "art4_incI_j",
        "art4_par3",
        "art7_parun",
        *DEADLINE_CITES,
    ),
)
def driver_registration(ctx: Context, facts: Driver) -> RuleResult:
    person = facts.person
    result: dict[str, object] = {}
    findings = [*_presence_findings(ctx, person), *_cnh_findings(ctx, person, result)]
    findings += [
        *_criminal_findings(ctx, person, result),
        _toxicology_finding(ctx, person),
        _insurance_finding(ctx, person),
        _other_jurisdiction_finding(ctx, person),
    ]
    return with_cure_window(ctx, eligibility(sorted(findings, key=lambda f: _ORDER.index(f.code)), result))


_ORDER = (
    "platform_registration",
    "cnh_category",
    "cnh_ear",
    "cnh_time_since_issue",
    "cnh_expiry",
    "alvara_fee",
    "criminal_certificate_federal",
    "criminal_certificate_state",
    "criminal_record_atestado",
    "exclusivity_pledge",
    "inss_registration",
    "app_insurance",
    "toxicology_exam",
    "municipal_registration",
    "other_jurisdiction_permit",
)


def _presence_findings(ctx: Context, person: Person) -> list[Finding]:
    findings = []
    for kind, code, cite, what in PRESENCE:
        ok = is_usable(person.document(kind), ctx.as_of)
        message = f"Apresentou {what}." if ok else f"Não apresentou {what}."
        findings.append(
            ctx.finding(
                code,
                Status.MET if ok else Status.NOT_MET,
                message,
                cites=(cite,),
                counterfactual=None if ok else f"seria deferido com {what}",
            )
        )
    return findings


# --- CNH: art. 4 I b ---------------------------------------------------------------------------------


def _cnh_findings(ctx: Context, person: Person, result: dict[str, object]) -> list[Finding]:
    cnh = ctx.require(person.cnh, "person.cnh")
    category_ok = bool(QUALIFYING_CATEGORIES & set(cnh.category.upper()))
    cites = ("art4_incI_b",)
    return [
        check(
            ctx,
            "cnh_category",
            category_ok,
            f"CNH categoria {cnh.category}: "
            + ("B ou superior." if category_ok else "exige-se B ou superior."),
            cites=cites,
            counterfactual="seria deferido com CNH categoria B ou superior",
        ),
        check(
            ctx,
            "cnh_ear",
            cnh.ear,
            "CNH "
            + ("contém" if cnh.ear else "não contém")
            + " a observação EAR (exerce atividade remunerada).",
            cites=cites,
            counterfactual="seria deferido com a observação EAR na CNH",
        ),
        _cnh_time_finding(ctx, person, cnh, result),
        _cnh_expiry_finding(ctx, cnh),
    ]


def _cnh_time_finding(ctx: Context, person: Person, cnh: CNH, result: dict[str, object]) -> Finding:
    since = _cnh_counting_start(ctx, person, cnh)
    years = int(ctx.param("cnh_min_years_since_issue"))
    deadline = years_later(ctx, since, years)
    result["cnh_one_year_on"] = deadline.end
    ok = deadline.end <= ctx.as_of
    message = f"CNH expedida em {br(since)}: completa {years} ano(s) de expedição em {br(deadline.end)} " + (
        "(atendido)." if ok else "(ainda não completou)."
    )
    return ctx.finding(
        "cnh_time_since_issue",
        _status(ok),
        message,
        cites=("art4_incI_b", *deadline.citations),
        counterfactual=None if ok else f"seria deferido a partir de {br(deadline.end)}",
    )


def _cnh_counting_start(ctx: Context, person: Person, cnh: CNH) -> dt.date:
    if ctx.interpretation(CNH_ISSUE_DATE) == "first_license":
        return ctx.require(cnh.first_issue, "person.cnh.first_issue")
    document = ctx.require(person.document("cnh"), "person.documents[cnh]")
    return require_issue_date(ctx, document, "person.documents[cnh]")


def _cnh_expiry_finding(ctx: Context, cnh: CNH) -> Finding:
    expiry = ctx.require(cnh.expiry, "person.cnh.expiry")
    ok = expiry >= ctx.as_of
    message = f"CNH válida até {br(expiry)}" + ("." if ok else " — vencida na data do pedido.")
    return ctx.finding(
        "cnh_expiry",
        _status(ok),
        message,
        cites=("art4_incI_b",),
        counterfactual=None if ok else "seria deferido com a CNH renovada",
    )


# --- certificates: art. 4 I e and i --------------------------------------------------------------------


def _criminal_findings(ctx: Context, person: Person, result: dict[str, object]) -> list[Finding]:
    findings, fresh_days = [], []
    for court, label in COURTS.items():
        document = _certificate_from(ctx, person, court)
        if document is None:
            findings.append(_missing_certificate(ctx, court, label))
            continue
        finding, last = _certificate_finding(ctx, document, court, label)
        findings.append(finding)
        fresh_days.append(last)
    if fresh_days:
        result["criminal_certificates_fresh_until"] = min(fresh_days)
    findings.append(_atestado_finding(ctx, person))
    return findings


def _certificate_from(ctx: Context, person: Person, court: str) -> Document | None:
    """The most recent certidão of ``court``; each certidão must say which court issued it."""
    matching = []
    for index, document in enumerate(person.documents):
        if document.kind != "criminal_distribution_certificate":
            continue
        found = ctx.require(document.details.get("court"), f"person.documents[{index}].details.court")
        if found not in COURTS:
            raise InvalidFactError(
                f"person.documents[{index}].details.court", f"use one of: {', '.join(COURTS)}"
            )
        if found == court:
            matching.append(document)
    return max(matching, key=lambda document: document.issue_date or dt.date.min, default=None)


def _missing_certificate(ctx: Context, court: str, label: str) -> Finding:
    return ctx.finding(
        f"criminal_certificate_{court}",
        Status.NOT_MET,
        f"Não apresentou certidão negativa criminal da {label}.",
        cites=("art4_incI_e",),
        counterfactual=f"seria deferido com a certidão negativa criminal da {label}",
    )


def _certificate_finding(ctx: Context, document: Document, court: str, label: str) -> tuple[Finding, dt.date]:
    issued = require_issue_date(ctx, document, f"person.documents[criminal_distribution_certificate/{court}]")
    last = fresh_until(ctx, issued)
    ok = document.valid is not False and within(issued, ctx.as_of, last)
    age = (ctx.as_of - issued).days
    years = ctx.param("criminal_certificate_residence_years")
    message = (
        f"Certidão criminal da {label} expedida em {br(issued)} ({age} dias); aceita até {br(last)}"
        + ("" if ok else " — fora do prazo de 60 dias da expedição")
        + f". Deve abranger as comarcas em que residiu nos últimos {years} anos (conferência do servidor)."
    )
    finding = ctx.finding(
        f"criminal_certificate_{court}",
        _status(ok),
        message,
        cites=("art4_incI_e",),
        counterfactual=None
        if ok
        else f"seria deferido com certidão da {label} expedida a partir de {br(ctx.as_of - (last - issued))}",
        data={"fresh_until": last},
    )
    return finding, last


def _atestado_finding(ctx: Context, person: Person) -> Finding:
    document = person.document("criminal_record_certificate")
    if document is None:
        return check(
            ctx,
            "criminal_record_atestado",
            False,
            "Não apresentou atestado de antecedentes criminais da Polícia Civil.",
            cites=("art4_incI_e",),
            counterfactual="seria deferido com o atestado de antecedentes da Polícia Civil",
        )
    issued = require_issue_date(ctx, document, "person.documents[criminal_record_certificate]")
    last = renewal_due(ctx, issued)
    if atestado_needs_freshness(ctx):
        last = min(last, fresh_until(ctx, issued))
    ok = document.valid is not False and within(issued, ctx.as_of, last)
    message = f"Atestado de antecedentes da Polícia Civil expedido em {br(issued)}; aceito até {br(last)}" + (
        "." if ok else " — vencido."
    )
    return ctx.finding(
        "criminal_record_atestado",
        _status(ok),
        message,
        cites=("art4_incI_e",),
        counterfactual=None if ok else "seria deferido com atestado atualizado",
        data={"valid_until": last},
    )


def _toxicology_finding(ctx: Context, person: Person) -> Finding:
    document = person.document("toxicology_exam")
    if document is None:
        return ctx.finding(
            "toxicology_exam",
            Status.NOT_MET,
            "Não apresentou exame toxicológico.",
            cites=("art4_incI_i",),
            counterfactual="seria deferido com exame toxicológico do último ano",
        )
    issued = require_issue_date(ctx, document, "person.documents[toxicology_exam]")
    last = toxicology_valid_until(ctx, issued)
    ok = document.valid is not False and within(issued, ctx.as_of, last)
    message = f"Exame toxicológico de {br(issued)}, válido até {br(last)}" + ("." if ok else " — vencido.")
    return ctx.finding(
        "toxicology_exam",
        _status(ok),
        message,
        cites=("art4_incI_i",),
        counterfactual=None if ok else "seria deferido com exame toxicológico do último ano",
        data={"valid_until": last},
    )


# --- insurance and other jurisdictions -------------------------------------------------------------------


def _insurance_finding(ctx: Context, person: Person) -> Finding:
    document = person.document("app_insurance")
    cites = ("art4_incI_h",)
    if not is_usable(document, ctx.as_of) or document is None:
        return ctx.finding(
            "app_insurance",
            Status.NOT_MET,
            "Não comprovou seguro APP vigente.",
            cites=cites,
            counterfactual="seria deferido com seguro APP vigente",
        )
    covered = detail_flag(ctx, document, "third_party_bodily_coverage", "person.documents[app_insurance]")
    message = (
        "Seguro APP vigente " + ("com" if covered else "sem") + " cobertura de danos corporais a terceiros."
    )
    return check(
        ctx,
        "app_insurance",
        covered,
        message,
        cites=cites,
        counterfactual="seria deferido com cobertura de danos corporais a terceiros",
    )


def _other_jurisdiction_finding(ctx: Context, person: Person) -> Finding:
    holds = ctx.require(person.holds_other_jurisdiction_permit, "person.holds_other_jurisdiction_permit")
    message = (
        "Possui autorização, permissão ou concessão de serviço da mesma natureza de outro ente federativo — "
        "vedado exercer a função de condutor em Patrocínio."
        if holds
        else "Não possui autorização, permissão ou concessão de outro ente federativo."
    )
    return ctx.finding("other_jurisdiction_permit", _status(not holds), message, cites=("art4_par3",))


def _status(ok: bool) -> Status:
    return Status.MET if ok else Status.NOT_MET
