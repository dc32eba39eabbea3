"""Driver requirements (art. 4º, I, "a" to "d"), also for non-holder drivers (art. 5º, parágrafo único) and the
emergency driver (art. 7º).

The "c" clause is garbled: the course requirement is fused with a fragment of the old CTB art. 138 IV. What it
demands besides the course is INT-VOT-ART4-I-C.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from lawcode.context import Context
from lawcode.deadlines import MonthRounding, add_months
from lawcode.decision import Finding, RuleResult, Status, eligibility
from lawcode.facts import Driver, Person, TrafficInfraction
from lawcode.regime import rule

from .common import br, completed_years, months_later, wording_date

DRIVER_CITES = (
    "art4_incI",
    "art4_incI_a",
    "art4_incI_b",
    "art4_incI_c",
    "art4_incI_d",
    "art5_parun",
    "art7",
    "ctb:art138_incIV",
    "ctb:art329",
)
ACCEPTED_CATEGORIES = ("D", "E")  # art. 4º, I, "b"; E also covers D's vehicles (CTB art. 143)
CERTIFICATE_CITES = ("art4_incI_d", "ctb:art329")
ROLE_CITES = {
    "principal": "art4_incI",
    "auxiliary": "art5_parun",
    "employee": "art5_parun",
    "emergency": "art7",
}
ROLE_PT = {
    "principal": "titular",
    "auxiliary": "auxiliar",
    "employee": "empregado",
    "emergency": "emergencial",
}


def driver_findings(
    ctx: Context, driver: Driver, prefix: str = "driver_"
) -> tuple[list[Finding], dict[str, Any]]:
    """Every art. 4º, I check for one driver; finding codes are ``prefix`` + check ("driver_age", "driver_1_age")."""
    person = driver.person
    result: dict[str, Any] = {}
    findings = [
        _role(ctx, driver, prefix),
        _age(ctx, person, prefix, result),
        _cnh(ctx, person, prefix),
        _course(ctx, person, prefix),
        _traffic_record(ctx, person, prefix, result),
        _criminal_certificate(ctx, person, prefix, result),
    ]
    return findings, result


@rule("driver_registration", cites=DRIVER_CITES)
def driver_registration(ctx: Context, facts: Driver) -> RuleResult:
    findings, result = driver_findings(ctx, facts)
    return eligibility(findings, result)


def _finding(
    ctx: Context,
    code: str,
    status: Status,
    message: str,
    cites: tuple[str, ...],
    counterfactual: str | None = None,
    data: dict[str, Any] | None = None,
) -> Finding:
    return ctx.finding(
        code, status, message, cites=cites, counterfactual=counterfactual, data=data, on=wording_date(ctx)
    )


def _role(ctx: Context, driver: Driver, prefix: str) -> Finding:
    role = ROLE_PT[driver.role]
    message = f"Condutor {role}: deve satisfazer as condições do art. 4º, I"
    if driver.role == "emergency":
        message += " (substituição do titular em caso de impedimento comprovado, art. 7º)"
    cites = tuple(dict.fromkeys((ROLE_CITES[driver.role], "art4_incI")))
    return _finding(ctx, prefix + "role", Status.INFO, message, cites)


def _age(ctx: Context, person: Person, prefix: str, result: dict[str, Any]) -> Finding:
    birth = ctx.require(person.birth_date, "person.birth_date")
    minimum = int(ctx.param("driver_min_age"))
    age = completed_years(birth, ctx.as_of)
    result["age"] = age
    if age >= minimum:
        return _finding(
            ctx, prefix + "age", Status.MET, f"Idade de {age} anos (mínimo {minimum})", ("art4_incI_a",)
        )
    turns = add_months(birth, 12 * minimum, rounding=MonthRounding.NEXT_DAY)  # 29/02 → 01/03 (CC art. 132 §3)
    return _finding(
        ctx,
        prefix + "age",
        Status.NOT_MET,
        f"Condutor com {age} anos; a lei exige {minimum} anos ou mais",
        ("art4_incI_a",),
        counterfactual=f"seria deferido a partir de {br(turns)}, quando completa {minimum} anos",
    )


def _cnh(ctx: Context, person: Person, prefix: str) -> Finding:
    cnh = ctx.require(person.cnh, "person.cnh")
    category = cnh.category.upper()
    problems = []
    if not any(letter in category for letter in ACCEPTED_CATEGORIES):
        problems.append(f"categoria {category} (exige-se D ou E)")
    if not cnh.ear:
        problems.append("sem a observação EAR (exerce atividade remunerada)")
    if cnh.expiry is not None and cnh.expiry < ctx.as_of:
        problems.append(f"vencida em {br(cnh.expiry)}")
    if not problems:
        return _finding(
            ctx, prefix + "cnh", Status.MET, f"CNH categoria {category} com EAR", ("art4_incI_b",)
        )
    return _finding(
        ctx,
        prefix + "cnh",
        Status.NOT_MET,
        "CNH irregular: " + "; ".join(problems),
        ("art4_incI_b",),
        counterfactual="seria deferido com CNH D ou E válida, com a observação EAR",
    )


def _course(ctx: Context, person: Person, prefix: str) -> Finding:
    certificate = person.document("school_transport_course")
    done = person.course_completed if person.course_completed is not None else certificate is not None
    if done and (certificate is None or certificate.valid is not False):
        return _finding(
            ctx,
            prefix + "course",
            Status.MET,
            "Aprovado em curso especializado para transporte de escolares",
            ("art4_incI_c",),
        )
    return _finding(
        ctx,
        prefix + "course",
        Status.NOT_MET,
        "Sem aprovação comprovada no curso especializado para transporte de escolares",
        ("art4_incI_c",),
        counterfactual="seria deferido com o certificado do curso especializado",
    )


def _window_start(ctx: Context) -> dt.date:
    """First day of "os 12 últimos meses" ending on ``as_of`` (the day after the same date 12 months before)."""
    months = int(ctx.param("driver_traffic_record_window_months"))
    return months_later(ctx.as_of, -months) + dt.timedelta(days=1)


def _count(infractions: tuple[TrafficInfraction, ...], start: dt.date, end: dt.date, *severities: str) -> int:
    return sum(1 for i in infractions if start <= i.date <= end and i.severity in severities)


def _traffic_record(ctx: Context, person: Person, prefix: str, result: dict[str, Any]) -> Finding:
    option = ctx.interpretation("INT-VOT-ART4-I-C")
    code = prefix + "traffic_record"
    if option == "course_only":
        return _finding(
            ctx,
            code,
            Status.NOT_APPLICABLE,
            "Trecho truncado do art. 4º, I, c sobre infrações não aplicado (só o curso é exigido)",
            ("art4_incI_c",),
        )
    start = _window_start(ctx)
    record = person.traffic_infractions
    if record is None:
        return _unknown_record(ctx, code, option)
    counts = {
        "traffic_window_start": start,
        "gravissimas_in_window": _count(record, start, ctx.as_of, "gravissima"),
        "graves_in_window": _count(record, start, ctx.as_of, "grave"),
        "medias_in_window": _count(record, start, ctx.as_of, "media"),
    }
    result.update(counts)
    if option == "current_ctb":
        return _current_ctb(ctx, code, counts)
    return _pre2021_ctb(ctx, code, counts)


def _unknown_record(ctx: Context, code: str, option: str) -> Finding:
    """Nobody confirmed the driving record: the infractions are unknown, never counted as none."""
    cites = ("art4_incI_c", "ctb:art138_incIV") if option == "current_ctb" else ("art4_incI_c",)
    return _finding(
        ctx,
        code,
        Status.NOT_MET,
        "Infrações de trânsito do condutor nos 12 últimos meses desconhecidas: o prontuário ainda não foi "
        "confirmado pelo analista com documento (certidão de prontuário do DETRAN)",
        cites,
        counterfactual="seria verificado com o prontuário do condutor confirmado",
        data={"record_known": False},
    )


def _pre2021_ctb(ctx: Context, code: str, counts: dict[str, Any]) -> Finding:
    serious = counts["gravissimas_in_window"] + counts["graves_in_window"]
    max_serious = int(ctx.param("driver_max_grave_or_gravissima"))
    max_medias = int(ctx.param("driver_max_media_infractions"))
    since = br(counts["traffic_window_start"])
    if serious <= max_serious and counts["medias_in_window"] <= max_medias:
        return _finding(
            ctx,
            code,
            Status.MET,
            f"Sem infração grave ou gravíssima nem reincidência em médias desde {since}",
            ("art4_incI_c",),
        )
    return _finding(
        ctx,
        code,
        Status.NOT_MET,
        f"Desde {since}: {serious} infração(ões) grave(s)/gravíssima(s) e "
        f"{counts['medias_in_window']} média(s); o art. 4º, I, c não admite grave ou gravíssima "
        "nem reincidência em médias nos 12 últimos meses",
        ("art4_incI_c",),
        counterfactual="seria deferido quando essas infrações saírem da janela de 12 meses",
    )


def _current_ctb(ctx: Context, code: str, counts: dict[str, Any]) -> Finding:
    maximum = int(ctx.param("driver_max_gravissima_ctb_current"))
    found = counts["gravissimas_in_window"]
    cites = ("art4_incI_c", "ctb:art138_incIV")
    if found <= maximum:
        return _finding(
            ctx, code, Status.MET, f"{found} gravíssima(s) nos 12 últimos meses (máximo {maximum})", cites
        )
    return _finding(
        ctx,
        code,
        Status.NOT_MET,
        f"{found} infrações gravíssimas nos 12 últimos meses; o CTB admite no máximo {maximum}",
        cites,
        counterfactual=f"seria deferido com no máximo {maximum} gravíssima nos 12 últimos meses",
    )


def _criminal_certificate(ctx: Context, person: Person, prefix: str, result: dict[str, Any]) -> Finding:
    code = prefix + "criminal_certificate"
    certificate = person.document("criminal_distribution_certificate")
    if certificate is None:
        counterfactual = (
            "seria deferido com a certidão negativa (homicídio, roubo, estupro e corrupção de menores)"
        )
        message = "Certidão negativa de distribuição criminal não apresentada"
        return _finding(ctx, code, Status.NOT_MET, message, CERTIFICATE_CITES, counterfactual=counterfactual)
    where = "person.documents.criminal_distribution_certificate"
    issued = ctx.require(certificate.issue_date, f"{where}.issue_date")
    negative = ctx.require(certificate.valid, f"{where}.valid")
    fresh_until = months_later(issued, 12 * int(ctx.param("criminal_certificate_renewal_years")))
    result["certificate_fresh_until"] = fresh_until
    return _certificate_finding(ctx, code, issued, fresh_until, negative=negative)


def _certificate_finding(
    ctx: Context, code: str, issued: dt.date, fresh_until: dt.date, *, negative: bool
) -> Finding:
    if not negative:
        message = "Certidão de distribuição criminal não é negativa"
        return _finding(ctx, code, Status.NOT_MET, message, CERTIFICATE_CITES)
    if ctx.as_of > fresh_until:
        message = f"Certidão emitida em {br(issued)} devia ter sido renovada até {br(fresh_until)}"
        counterfactual = "seria deferido com certidão emitida nos últimos 5 anos"
        return _finding(ctx, code, Status.NOT_MET, message, CERTIFICATE_CITES, counterfactual=counterfactual)
    message = (
        f"Certidão negativa emitida em {br(issued)}, válida até {br(fresh_until)} (renovável a cada 5 anos)"
    )
    return _finding(ctx, code, Status.MET, message, CERTIFICATE_CITES)
