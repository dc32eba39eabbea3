"""Requirements on people: the PF operator and its auxiliary driver (arts. 8 and 9), the driver employed by a
PJ (art. 11) and the boarding attendant (art. 13 VI).

Every check returns a Finding that cites its inciso; the registration rules only put them together.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from lawcode.context import Context
from lawcode.decision import Finding, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import CNH, Document, Person

from .common import anniversary, br, completed_years, document_finding, label, months_later

CERTIFICATE_KINDS = ("criminal_record_certificate", "criminal_distribution_certificate")


@dataclass(frozen=True)
class AgeRule:
    """A minimum age: the finding code, the whole years, the dispositivos and who is checked (pt-BR)."""

    code: str
    minimum: int
    cites: tuple[str, ...]
    who: str


def person_age_finding(ctx: Context, person: Person, field: str, rule: AgeRule) -> Finding:
    """Age on ``as_of`` of at least ``rule.minimum`` whole years; the counterfactual names the first day."""
    birth = ctx.require(person.birth_date, f"{field}.birth_date")
    age, minimum = completed_years(birth, ctx.as_of), rule.minimum
    if age >= minimum:
        message = f"{rule.who} tem {age} anos (mínimo {minimum})"
        return ctx.finding(rule.code, Status.MET, message, cites=rule.cites, data={"age": age})
    eligible_on = anniversary(birth, minimum)
    return ctx.finding(
        rule.code,
        Status.NOT_MET,
        f"{rule.who} tem {age} anos; a lei exige no mínimo {minimum}",
        cites=rule.cites,
        counterfactual=f"seria atendido a partir de {br(eligible_on)}, quando completa {minimum} anos",
        data={"age": age, "eligible_on": eligible_on},
    )


def cnh_finding(ctx: Context, cnh: CNH | None, field: str, cites: tuple[str, ...]) -> Finding:
    """CNH category D or E (a combination such as "AD" counts) with the EAR remark, not expired."""
    licence = ctx.require(cnh, f"{field}.cnh")
    category = licence.category.upper()
    problems = []
    if "D" not in category and "E" not in category:
        problems.append(f"categoria {category} (exige-se D ou E)")
    if not licence.ear:
        problems.append("sem a anotação de atividade remunerada (EAR)")
    if licence.expiry is not None and licence.expiry < ctx.as_of:
        problems.append(f"vencida em {br(licence.expiry)}")
    if not problems:
        return ctx.finding("cnh", Status.MET, f"CNH categoria {category} com EAR", cites=cites)
    return ctx.finding(
        "cnh",
        Status.NOT_MET,
        "CNH " + "; ".join(problems),
        cites=cites,
        counterfactual="seria atendido com CNH categoria D ou E, com EAR, dentro da validade",
    )


def gravissima_finding(ctx: Context, person: Person) -> Finding:
    """No (or, by INT-OLI-CTB138-GRAVISSIMA, at most one) gravíssima in the 12 months before as_of."""
    months = int(ctx.param("gravissima_lookback_months"))
    window_start = months_later(ctx.as_of, -months)
    reading = ctx.interpretation("INT-OLI-CTB138-GRAVISSIMA")
    cites: tuple[str, ...]
    if reading == "ctb_one":
        allowed, cites = int(ctx.param("gravissima_max_count_ctb")), ("art9_incVIII", "ctb:art138_incIV")
    else:
        allowed, cites = int(ctx.param("gravissima_max_count_municipal")), ("art9_incVIII",)
    if person.traffic_infractions is None:
        return unknown_record_finding(ctx, "no_gravissima", cites, allowed)
    count = sum(
        1
        for t in person.traffic_infractions
        if t.severity == "gravissima" and window_start < t.date <= ctx.as_of
    )
    message = (
        f"{count} infração(ões) gravíssima(s) entre {br(window_start + dt.timedelta(days=1))} "
        f"e {br(ctx.as_of)}; admitida(s): {allowed}"
    )
    status = Status.MET if count <= allowed else Status.NOT_MET
    return ctx.finding(
        "no_gravissima", status, message, cites=cites, data={"count": count, "allowed": allowed}
    )


def unknown_record_finding(ctx: Context, code: str, cites: tuple[str, ...], allowed: int) -> Finding:
    """The driving record was never confirmed: the count is unknown, so the requirement is not shown met."""
    return ctx.finding(
        code,
        Status.NOT_MET,
        "Infrações gravíssimas do condutor desconhecidas: o prontuário de trânsito ainda não foi "
        "confirmado pelo analista com documento (certidão de prontuário do DETRAN)",
        cites=cites,
        counterfactual=f"seria verificado com o prontuário confirmado; admitida(s): {allowed}",
        data={"count": None, "allowed": allowed, "record_known": False},
    )


def certificate_reference(ctx: Context, document: Document, field: str, filed_on: dt.date | None) -> dt.date:
    """Date up to which a certificate's age is measured (INT-OLI-CERTIFICATE-REFERENCE-DATE)."""
    if ctx.interpretation("INT-OLI-CERTIFICATE-REFERENCE-DATE") == "decision_date":
        return ctx.as_of
    presented = document.details.get("presented_on", filed_on)
    if isinstance(presented, str):
        try:
            presented = dt.date.fromisoformat(presented)
        except ValueError:
            raise InvalidFactError(f"{field}.details.presented_on", "expected a date YYYY-MM-DD") from None
    return ctx.require(presented if isinstance(presented, dt.date) else None, f"{field}.details.presented_on")


@dataclass(frozen=True)
class CertificateRule:
    """Which article asks for the criminal certificates and which parameter caps their age."""

    cites: tuple[str, ...]
    max_days_param: str


def certificate_finding(
    ctx: Context, person: Person, kind: str, field: str, rule: CertificateRule, filed_on: dt.date | None
) -> Finding:
    """Criminal certificate issued at most N days before the reference date (≤ or < by interpretation)."""
    cites, max_days_param = rule.cites, rule.max_days_param
    matching = [d for d in person.documents if d.kind == kind]
    if not matching:
        return document_finding(ctx, kind, None, kind, cites=cites)
    document = max(matching, key=lambda d: d.issue_date or dt.date.min)
    where = f"{field}.documents[{kind}]"
    issued = ctx.require(document.issue_date, f"{where}.issue_date")
    reference = certificate_reference(ctx, document, where, filed_on)
    max_days = int(ctx.param(max_days_param))
    inclusive = ctx.interpretation("INT-OLI-CERTIFICATE-AGE-BOUNDARY") == "inclusive"
    age = (reference - issued).days
    fresh = document.valid is not False and (age <= max_days if inclusive else age < max_days)
    limit = "até" if inclusive else "menos de"
    message = (
        f"{label(ctx, kind)}: emitido em {br(issued)}, {age} dias antes de {br(reference)} "
        f"(exige-se {limit} {max_days} dias)"
    )
    data = {"issued": issued, "reference": reference, "age_days": age}
    if fresh:
        return ctx.finding(kind, Status.MET, message, cites=cites, data=data)
    oldest = reference - dt.timedelta(days=max_days if inclusive else max_days - 1)
    counterfactual = f"seria atendido com certidão emitida a partir de {br(oldest)}"
    return ctx.finding(kind, Status.NOT_MET, message, cites=cites, data=data, counterfactual=counterfactual)


# (finding code, document kind, inciso) of the plain documents each article asks for.
ART9_DOCUMENTS = (
    ("course", "school_transport_course", "art9_incIV"),
    ("address_proof", "address_proof", "art9_incV"),
    ("municipal_registration", "municipal_registration", "art9_incVI"),
    ("municipal_tax_clearance", "municipal_tax_clearance", "art9_incVII"),
    ("no_gravissima_proof", "no_gravissima_proof", "art9_incVIII"),
    ("detran_fines_clearance", "detran_fines_clearance", "art9_incX"),
)
ART11_DOCUMENTS = (
    ("employment_contract", "employment_contract", "art11_incII"),
    ("course", "school_transport_course", "art11_incIV"),
    ("address_proof", "address_proof", "art11_incV"),
    ("detran_fines_clearance", "detran_fines_clearance", "art11_incVII"),
)
# Cited with the inciso: art. 6 requires the PF to be "inscrito no Município"; art. 11 caput names the link.
EXTRA_CITES = {"art9_incVI": ("art6",), "art11_incII": ("art11",)}


def plain_document_findings(
    ctx: Context, person: Person, table: tuple[tuple[str, str, str], ...], prefix: tuple[str, ...]
) -> list[Finding]:
    return [
        document_finding(
            ctx, code, person.document(kind), kind, cites=(*prefix, cite, *EXTRA_CITES.get(cite, ()))
        )
        for code, kind, cite in table
    ]


def certificate_findings(
    ctx: Context, person: Person, field: str, rule: CertificateRule, filed_on: dt.date | None
) -> list[Finding]:
    return [certificate_finding(ctx, person, kind, field, rule, filed_on) for kind in CERTIFICATE_KINDS]


def art9_personal_findings(
    ctx: Context, person: Person, field: str, *, prefix: tuple[str, ...] = (), filed_on: dt.date | None = None
) -> list[Finding]:
    """Art. 9 II–X: the personal requirements of the PF operator (and, by art. 8 sole §, its auxiliary)."""
    age = AgeRule("operator_age", int(ctx.param("operator_min_age")), (*prefix, "art9_incII"), "O condutor")
    certificates = CertificateRule((*prefix, "art9_incIX"), "certificate_max_age_days")
    return [
        person_age_finding(ctx, person, field, age),
        cnh_finding(ctx, person.cnh, field, (*prefix, "art9", "art9_incIII")),
        gravissima_finding(ctx, person),
        *plain_document_findings(ctx, person, ART9_DOCUMENTS, prefix),
        *certificate_findings(ctx, person, field, certificates, filed_on),
    ]


def art11_findings(
    ctx: Context, person: Person, field: str, filed_on: dt.date | None = None
) -> list[Finding]:
    """Art. 11 II–VII: the driver employed by a PJ operator (age from CTB art. 138 I)."""
    minimum = int(ctx.param("operator_min_age"))
    age = AgeRule("driver_age", minimum, ("ctb:art138_incI", "art9_incII"), "O condutor")
    certificates = CertificateRule(("art11_incVI",), "employee_certificate_max_age_days")
    return [
        person_age_finding(ctx, person, field, age),
        cnh_finding(ctx, person.cnh, field, ("art11_incIII",)),
        *plain_document_findings(ctx, person, ART11_DOCUMENTS, ()),
        *certificate_findings(ctx, person, field, certificates, filed_on),
    ]


def attendant_age_finding(ctx: Context, person: Person, field: str) -> Finding:
    """ "Maior de 18 anos": from the 18th birthday, or (INT-OLI-ATTENDANT-AGE) only from the day after it."""
    minimum = int(ctx.param("attendant_min_age"))
    finding = person_age_finding(
        ctx, person, field, AgeRule("attendant_age", minimum, ("art13_incVI",), "O auxiliar de embarque")
    )
    birth = ctx.require(person.birth_date, f"{field}.birth_date")
    strict = ctx.interpretation("INT-OLI-ATTENDANT-AGE") == "strictly_over_18"
    if not strict or ctx.as_of != anniversary(birth, minimum):
        return finding
    message = f"O auxiliar completa {minimum} anos hoje; a leitura adotada exige mais de {minimum}"
    next_day = br(ctx.as_of + dt.timedelta(days=1))
    counterfactual = f"seria atendido a partir de {next_day}"
    return ctx.finding(
        "attendant_age", Status.NOT_MET, message, cites=("art13_incVI",), counterfactual=counterfactual
    )


def attendant_findings(ctx: Context, person: Person, field: str) -> list[Finding]:
    """Art. 13 VI: boarding attendant "maior de 18 anos" with a criminal distribution certificate."""
    kind = "criminal_distribution_certificate"
    certificate = document_finding(ctx, kind, person.document(kind), kind, cites=("art13_incVI",))
    return [attendant_age_finding(ctx, person, field), certificate]


ART9_PERSONAL_CITES = (
    "art6",
    "art9",
    "art9_incII",
    "art9_incIII",
    "art9_incIV",
    "art9_incV",
    "art9_incVI",
    "art9_incVII",
    "art9_incVIII",
    "art9_incIX",
    "art9_incX",
    "ctb:art138_incIV",
)
AUXILIARY_CITES = ("art8", "art8_parun")
ART11_CITES = (
    "art11",
    "art11_incII",
    "art11_incIII",
    "art11_incIV",
    "art11_incV",
    "art11_incVI",
    "art11_incVII",
    "art9_incII",
    "ctb:art138_incI",
)
ATTENDANT_CITES = ("art13_incVI",)
PEOPLE_CITES = (*ART9_PERSONAL_CITES, *AUXILIARY_CITES, *ART11_CITES, *ATTENDANT_CITES)
