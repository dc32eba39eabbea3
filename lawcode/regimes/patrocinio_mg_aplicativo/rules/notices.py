"""Notice of penalty (art. 19 §§1–2), ciência by each channel, and the appeal and judgment deadlines.

The 90-day limit's starting point is INT-PAT-ART19-PAR2 (§2 is circular). Ciência by edital is
INT-PAT-EDITAL-CIENCIA. The law sets no appeal or judgment deadline; INT-PAT-SUBSIDIARY-PROCEDURE applies
Lei 9.784/1999 (default) or reports that none is defined.
"""

from __future__ import annotations

import datetime as dt

from lawcode.context import Context
from lawcode.decision import RuleResult, Status
from lawcode.errors import InvalidFactError
from lawcode.facts import DeadlineFacts, NoticeFacts
from lawcode.regime import rule

from .common import DEADLINE_CITES, br, days_deadline

ART19_PAR2 = "INT-PAT-ART19-PAR2"
EDITAL = "INT-PAT-EDITAL-CIENCIA"
SUBSIDIARY = "INT-PAT-SUBSIDIARY-PROCEDURE"
NOTICE_START_PT = {
    "auto_receipt": "recebimento do auto de infração",
    "auto_issue": "lavratura do auto de infração",
    "infraction_date": "data da infração",
}


@rule("notice_limit", cites=("art19", "art19_par1", "art19_par2", *DEADLINE_CITES))
def notice_limit(ctx: Context, facts: NoticeFacts) -> RuleResult:
    option = ctx.interpretation(ART19_PAR2)
    start = _notice_start(ctx, facts, option)
    deadline = days_deadline(ctx, start, "penalty_notice_limit_days")
    dispatched = facts.published_on if facts.channel == "edital" else facts.sent_on
    late = None if dispatched is None else dispatched > deadline.end
    status = Status.INFO if late is None else Status.NOT_MET if late else Status.MET
    message = f"Notificação de penalidade até {br(deadline.end)} (90 dias da {NOTICE_START_PT[option]}, {br(start)})"
    if dispatched is not None:
        message += f"; encaminhada em {br(dispatched)} — " + ("fora do prazo." if late else "no prazo.")
    finding = ctx.finding(
        "notice_timeliness", status, message, cites=("art19_par1", "art19_par2", *deadline.citations)
    )
    result = {
        "start": start,
        "end": deadline.end,
        "late": late,
        "dispatched_on": dispatched,
        "steps": list(deadline.steps),
    }
    return RuleResult("computed", [finding], result)


def _notice_start(ctx: Context, facts: NoticeFacts, option: str) -> dt.date:
    if option == "auto_receipt":
        return ctx.require(facts.auto_received_on, "auto_received_on")
    if option == "auto_issue":
        return ctx.require(facts.auto_date, "auto_date")
    return ctx.require(facts.infraction_date, "infraction_date")


@rule("ciencia_date", cites=("art16", "art19_par1"))
def ciencia_date(ctx: Context, facts: NoticeFacts) -> RuleResult:
    if facts.channel == "edital":
        return _edital_ciencia(ctx, ctx.require(facts.published_on, "published_on"))
    if facts.returned_reason is not None:
        finding = ctx.finding(
            "notice_delivery",
            Status.NOT_MET,
            "A notificação foi devolvida; a lei não presume a ciência — notifique de novo "
            "(por via eletrônica ou por edital).",
            cites=("art19_par1",),
        )
        return RuleResult("computed", [finding], {"ciencia_on": None, "channel": facts.channel})
    received = ctx.require(facts.received_on, "received_on")
    cite = "art16" if facts.channel == "in_person" else "art19_par1"
    labels = {
        "in_person": "entrega pessoal do termo",
        "ar": "via postal com comprovante",
        "electronic": "via eletrônica",
    }
    finding = ctx.finding(
        "notice_delivery", Status.MET, f"Ciência em {br(received)} ({labels[facts.channel]}).", cites=(cite,)
    )
    return RuleResult("computed", [finding], {"ciencia_on": received, "channel": facts.channel})


def _edital_ciencia(ctx: Context, published: dt.date) -> RuleResult:
    if ctx.interpretation(EDITAL) == "publication_date":
        ciencia = published
    else:
        ciencia = ctx.calendar.next_business_day(published)
    finding = ctx.finding(
        "notice_delivery",
        Status.MET,
        f"Edital publicado em {br(published)}; ciência considerada em {br(ciencia)}.",
        cites=("art19_par1",),
    )
    return RuleResult("computed", [finding], {"ciencia_on": ciencia, "channel": "edital"})


@rule("appeal_deadline", cites=("art19", "art25", "lei9784:art59", *DEADLINE_CITES))
def appeal_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """``start``: the day of ciência of the decision."""
    if ctx.interpretation(SUBSIDIARY) == "not_defined":
        return _not_defined(ctx, "appeal_deadline", "recurso")
    deadline = days_deadline(ctx, facts.start, "appeal_deadline_days")
    finding = ctx.finding(
        "appeal_deadline",
        Status.INFO,
        f"Recurso até {br(deadline.end)} (Lei 9.784/1999, art. 59, aplicada subsidiariamente).",
        cites=("lei9784:art59", *deadline.citations),
    )
    return RuleResult(
        "computed", [finding], {"end": deadline.end, "defined": True, "steps": list(deadline.steps)}
    )


@rule(
    "judgment_deadline", cites=("art19", "art25", "lei9784:art59_par1", "lei9784:art59_par2", *DEADLINE_CITES)
)
def judgment_deadline(ctx: Context, facts: DeadlineFacts) -> RuleResult:
    """``start``: the day the appeal was received; ``extensions``: 0 or 1 (art. 59 §2 allows one)."""
    if ctx.interpretation(SUBSIDIARY) == "not_defined":
        return _not_defined(ctx, "judgment_deadline", "julgamento")
    extensions = facts.extensions or 0
    if extensions not in (0, 1):
        raise InvalidFactError("extensions", "Lei 9.784/1999 art. 59 §2 allows a single extension (0 or 1)")
    deadline = days_deadline(ctx, facts.start, "judgment_deadline_days", multiplier=1 + extensions)
    cites = ("lei9784:art59_par1", "lei9784:art59_par2") if extensions else ("lei9784:art59_par1",)
    extra = ", prorrogado uma vez por igual período" if extensions else ""
    finding = ctx.finding(
        "judgment_deadline",
        Status.INFO,
        f"Decisão do recurso até {br(deadline.end)}{extra} (Lei 9.784/1999, art. 59).",
        cites=(*cites, *deadline.citations),
    )
    return RuleResult(
        "computed", [finding], {"end": deadline.end, "defined": True, "steps": list(deadline.steps)}
    )


def _not_defined(ctx: Context, code: str, what: str) -> RuleResult:
    finding = ctx.finding(
        code,
        Status.WARNING,
        f"A Lei 5.832/2025 não fixa prazo de {what}; depende de regulamento (art. 25).",
        cites=("art19", "art25"),
    )
    return RuleResult("computed", [finding], {"end": None, "defined": False})
