"""What the screens show, computed from rows: the law's decision laid out for the analyst, the actions the
application's state allows, and the timeline marks. No queries beyond the rows passed in.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from apps.licensing.choices import PERMIT_KINDS, ApplicationState, EventKind
from apps.licensing.models import Application, ApplicationEvent, Permit
from apps.licensing.standing import Standing, permits_standing
from apps.licensing.timeline import Deadline, Mark, PlacedMark, layout
from apps.registry.choices import DocumentStatus
from apps.registry.selectors import decision_reason, operator_documents
from lawcode.decision import OUTCOME_PT, Status
from lawcode.questions import QUESTIONS

S = ApplicationState
UNIT_PT = {
    "years": "anos",
    "days": "dias",
    "calendar_days": "dias corridos",
    "business_days": "dias úteis",
    "hours": "horas",
    "months": "meses",
    "count": "",
    "percent": "%",
    "boolean": "",
    "date": "",
    "brl": "reais",
    "ufm": "UFM",
    "ufesp": "UFESP",
}
STATUS_CSS = {
    "met": "success",
    "not_met": "danger",
    "warning": "warning",
    "not_applicable": "",
    "info": "info",
}


def _citation_text(citation: dict[str, Any]) -> str:
    """'Lei 6.151/2018 …, art. 4º' plus the wording version when it is not the original."""
    text = str(citation.get("text", ""))
    version = citation.get("version_label")
    return f"{text} ({version})" if version and version not in text else text


def _finding_view(finding: dict[str, Any]) -> dict[str, Any]:
    status = finding.get("status", "info")
    return {
        "code": finding.get("code", ""),
        "status": status,
        "status_label": Status(status).label_pt,
        "css": STATUS_CSS.get(status, ""),
        "message": finding.get("message", ""),
        "citations": [_citation_text(c) for c in finding.get("citations", [])],
        "counterfactual": finding.get("counterfactual"),
    }


def _result_dates(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The decision's dated results (valid_until, cure_until, end…) as dd/mm/yyyy."""
    labels = {
        "valid_until": "Válido até",
        "cure_until": "Sanar até",
        "end": "Prazo final",
        "fresh_until": "Recente até",
        "until": "Até",
        "next_due": "Próxima vistoria",
    }
    shown = []
    for key, label in labels.items():
        value = result.get(key)
        if isinstance(value, str) and len(value) == 10:
            try:
                shown.append((label, dt.date.fromisoformat(value).strftime("%d/%m/%Y")))
            except ValueError:
                continue
    return shown


def _date_pt(value: Any) -> str:
    """A stored ISO date ("2026-12-06") as people read it (06/12/2026); anything else as it was."""
    if isinstance(value, str) and len(value) == len("2026-12-06"):
        try:
            return dt.date.fromisoformat(value).strftime("%d/%m/%Y")
        except ValueError:
            return value
    return "" if value is None else str(value)


def _question_pt(name: str) -> str:
    """The question the law was asked, as the engine words it («<instrumento> do veículo…»), never its code."""
    spec = QUESTIONS.get(name)
    return spec.description_pt if spec is not None else name


def decision_view(decision: dict[str, Any]) -> dict[str, Any] | None:
    if not decision:
        return None
    return {
        "outcome": decision.get("outcome", ""),
        "outcome_pt": OUTCOME_PT.get(decision.get("outcome", ""), decision.get("outcome", "")),
        "as_of": _date_pt(decision.get("as_of")),
        "question": _question_pt(decision.get("question", "")),
        "findings": [_finding_view(x) for x in decision.get("findings", [])],
        "parameters": [
            {
                "description": p.get("description") or p["name"],
                "value": p.get("value"),
                "unit": UNIT_PT.get(p.get("unit", ""), p.get("unit", "")),
                "citation": _citation_text(p.get("citation", {})),
                "effective_from": _date_pt(p.get("effective_from")),
            }
            for p in decision.get("parameters", [])
        ],
        "interpretations": decision.get("interpretations", []),
        "dates": _result_dates(decision.get("result", {})),
        "citations": [_citation_text(c) for c in decision.get("citations", [])],
    }


@dataclass(frozen=True)
class Action:
    slug: str
    label: str
    style: str = "secondary"
    note: bool = False
    fee: bool = False


def available_actions(application: Application) -> list[Action]:
    """The buttons the state allows; the services check again (a stale page cannot skip a step)."""
    state = application.state
    actions: list[Action] = []
    if state == S.DRAFT:
        actions.append(Action("protocolar", "Protocolar", "primary"))
    if state in (S.SUBMITTED, S.PENDING_DOCUMENTS):
        actions.append(
            Action("analisar", "Iniciar análise" if state == S.SUBMITTED else "Retomar análise", "primary")
        )
    if state in (S.IN_ANALYSIS, S.PENDING_DOCUMENTS):
        actions.append(Action("avaliar", "Avaliar pela lei", "primary"))
    if state == S.IN_ANALYSIS:
        actions += _analysis_actions(application)
    deniable = state in (
        S.SUBMITTED,
        S.IN_ANALYSIS,
        S.PENDING_DOCUMENTS,
        S.AWAITING_FEE,
        S.AWAITING_INSPECTION,
    )
    if deniable and application.last_decision.get("outcome") == "denied":
        actions.append(Action("indeferir", "Indeferir", "danger", note=True))
    if state not in (S.APPROVED, S.DENIED, S.ARCHIVED):
        actions.append(Action("arquivar", "Arquivar", "secondary", note=True))
    return actions


def _analysis_actions(application: Application) -> list[Action]:
    actions = [Action("pedir-documentos", "Pedir documentos", note=True)]
    actions.append(Action("exigir-taxa", "Emitir guia da taxa", fee=True))
    if application.kind in PERMIT_KINDS and application.inspection_passed_on is None:
        actions.append(Action("pedir-vistoria", "Encaminhar para vistoria"))
    actions.append(Action("deferir", "Deferir", "primary", note=True))
    return actions


def _deadlines(application: Application, events: list[ApplicationEvent]) -> list[Deadline]:
    deadlines: list[Deadline] = []
    if application.cure_deadline:
        cured = application.state not in (S.PENDING_DOCUMENTS, S.ARCHIVED)
        deadlines.append(Deadline(application.cure_deadline, "Prazo para sanar", cured))
    guide = application.fee_guide
    if guide is not None:
        deadlines.append(Deadline(guide.due_on, f"Vencimento da guia {guide.number}", guide.status == "paid"))
    for event in events:
        if event.kind == EventKind.FEE_PAID and event.data.get("inspection_deadline"):
            on = dt.date.fromisoformat(event.data["inspection_deadline"])
            deadlines.append(Deadline(on, "Vistoria até", application.inspection_passed_on is not None))
    return deadlines


def application_timeline(
    application: Application, events: list[ApplicationEvent], today: dt.date
) -> list[PlacedMark]:
    """One mark per day with events (that day's last event, and how many more), plus the deadlines."""
    by_day: dict[dt.date, list[ApplicationEvent]] = {}
    for event in events:
        by_day.setdefault(event.on, []).append(event)
    marks = [Mark(day, _day_label(day_events), "event") for day, day_events in by_day.items()]
    return layout(marks, _deadlines(application, events), today)


def _day_label(day_events: list[ApplicationEvent]) -> str:
    more = len(day_events) - 1
    return day_events[-1].get_kind_display() + (f" (+{more})" if more else "")


def permit_lines(permits: Iterable[Permit], as_of: dt.date) -> list[tuple[Permit, Standing]]:
    """Each permit with its legal status on ``as_of`` (reason and article), for a list or a detail page."""
    rows = list(permits)
    found = permits_standing(rows, as_of=as_of)
    return [(permit, found[permit.pk]) for permit in rows]


def application_documents(application: Application) -> list[tuple[Any, str]]:
    """The documents the application stands on — the operator's, its holder's and people's, and the application's
    vehicle (not the operator's other vehicles) — each with the law's reason for its validity; replaced copies are
    history and left out."""
    rows = operator_documents(application.operator).exclude(status=DocumentStatus.REPLACED)
    if application.vehicle_id is not None:
        rows = rows.filter(Q(vehicle__isnull=True) | Q(vehicle_id=application.vehicle_id))
    return [(document, decision_reason(document.decision)) for document in rows]
