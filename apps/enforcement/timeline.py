"""The case picture: every event and every deadline (past, due, overdue), drawn as a vertical inline SVG.

Deadlines come from the engine: the first-instance defence/appeal deadline (from the ciência of the auto) and
the penalty notice limit (Patrocínio art. 19 §1) are enforcement's; due process contributes its own (judgment,
second instance, payment…) through hooks.register_timeline_source.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from apps.enforcement import hooks, lawbridge
from apps.enforcement.choices import EventKind, NoticePurpose
from apps.enforcement.hooks import TimelineItem
from apps.enforcement.models import InfractionCase
from apps.tenancy.regimes import labels_of

ROW_HEIGHT = 34
TOP = 18
STATUS_LABELS = {
    "event": "Evento",
    "met": "Prazo cumprido",
    "late": "Cumprido fora do prazo",
    "due": "A vencer",
    "overdue": "Vencido",
    "today": "Hoje",
}
COLORS = {
    "event": "#1351b4",
    "met": "#168821",
    "late": "#c45100",
    "due": "#ff9c00",
    "overdue": "#e52207",
    "today": "#333333",
}


@dataclass(frozen=True)
class Mark:
    on: dt.date
    label: str
    status: str
    detail: str = ""
    cite: str = ""
    y: int = 0

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def color(self) -> str:
        return COLORS[self.status]

    @property
    def is_deadline(self) -> bool:
        return self.status not in ("event", "today")


def deadline_status(item: TimelineItem, as_of: dt.date) -> str:
    if item.done_on is not None:
        return "met" if item.done_on <= item.on else "late"
    return "overdue" if as_of > item.on else "due"


def _first_event(case: InfractionCase, kind: str) -> dt.date | None:
    event = case.events.filter(kind=kind).order_by("on").first()
    return event.on if event else None


def infraction_ciencia(case: InfractionCase) -> dt.date | None:
    """The first day the offender is deemed to know the auto (earliest ciência of an infraction notice)."""
    notice = case.notices.filter(purpose=NoticePurpose.INFRACTION, ciencia_on__isnull=False).order_by(
        "ciencia_on"
    )
    first = notice.first()
    return first.ciencia_on if first else None


def defence_deadline(case: InfractionCase, as_of: dt.date) -> TimelineItem | None:
    ciencia = infraction_ciencia(case)
    answer = lawbridge.defence_deadline(case, ciencia, as_of) if ciencia else None
    if answer is None or answer.value is None:
        return None
    return TimelineItem(
        on=answer.value,
        label="Prazo de defesa / recurso (1ª instância)",
        deadline=True,
        done_on=_first_event(case, EventKind.APPEAL_FILED),
        detail=answer.message,
    )


def penalty_notice_limit(case: InfractionCase) -> TimelineItem | None:
    if case.notice_limit is None:
        return None
    sent = case.notices.filter(purpose=NoticePurpose.FINAL_DECISION).order_by("sent_on").first()
    message = "; ".join(f.get("message", "") for f in case.notice_limit_decision.get("findings", []))
    return TimelineItem(
        on=case.notice_limit,
        label=labels_of(case.regime_id).deadline_label("notice_limit"),
        deadline=True,
        done_on=sent.sent_on if sent else None,
        detail=message,
    )


def notice_limit_passed(case: InfractionCase, as_of: dt.date) -> bool:
    """The 90-day limit ran out with no penalty notice sent (or it was sent late)."""
    item = penalty_notice_limit(case)
    return item is not None and deadline_status(item, as_of) in ("overdue", "late")


def _items(case: InfractionCase, as_of: dt.date) -> list[TimelineItem]:
    items = [TimelineItem(on=e.on, label=e.get_kind_display(), detail=e.note) for e in case.events.all()]
    own = [defence_deadline(case, as_of), penalty_notice_limit(case)]
    items += [item for item in own if item is not None]
    for source in hooks.timeline_sources():
        items += source(case, as_of)
    return items


def case_timeline(case: InfractionCase, as_of: dt.date) -> list[Mark]:
    """Every mark in date order (events before deadlines on the same day), «hoje» among them, with its row."""
    marks = [
        Mark(
            item.on,
            item.label,
            deadline_status(item, as_of) if item.deadline else "event",
            item.detail,
            item.cite,
        )
        for item in _items(case, as_of)
    ]
    marks.append(Mark(as_of, "Hoje", "today"))
    marks.sort(key=lambda m: (m.on, m.is_deadline, m.status == "today"))
    return [
        Mark(m.on, m.label, m.status, m.detail, m.cite, TOP + index * ROW_HEIGHT)
        for index, m in enumerate(marks)
    ]


def svg_height(marks: list[Mark]) -> int:
    return TOP + len(marks) * ROW_HEIGHT
