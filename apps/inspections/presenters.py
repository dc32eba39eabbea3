"""Shapes for the templates: the 12-month inline SVG (due, done and overdue bars per month) and the checklist
rows of a pending inspection, each with its articles rendered on the day."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from apps.inspections import lawbridge
from apps.inspections.calendar import MonthCount
from apps.inspections.models import Inspection

CHART_HEIGHT = 160
BAR_WIDTH = 10
MONTH_WIDTH = 44
TOP = 16
SERIES = (("due", "Previstas", "#1351b4"), ("done", "Feitas", "#168821"), ("overdue", "Atrasadas", "#e52207"))


@dataclass(frozen=True)
class Bar:
    x: int
    y: int
    height: int
    color: str
    title: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    baseline: int
    bars: tuple[Bar, ...]
    labels: tuple[tuple[int, str, bool], ...]
    legend: tuple[tuple[str, str], ...]


def year_chart(counts: list[MonthCount], highlighted_month: int) -> Chart:
    """Three bars per month scaled to the largest count; each bar's <title> reads the number in Portuguese."""
    peak = max([1, *(max(c.due, c.done, c.overdue) for c in counts)])
    bars: list[Bar] = []
    labels: list[tuple[int, str, bool]] = []
    for index, count in enumerate(counts):
        left = 8 + index * MONTH_WIDTH
        for offset, (attr, name, color) in enumerate(SERIES):
            value = int(getattr(count, attr))
            height = round(value * CHART_HEIGHT / peak)
            title = f"{count.label}/{count.year}: {value} {name.lower()}"
            bars.append(
                Bar(left + offset * (BAR_WIDTH + 2), TOP + CHART_HEIGHT - height, height, color, title)
            )
        labels.append((left + 17, count.label, count.month == highlighted_month))
    legend = tuple((name, color) for _, name, color in SERIES)
    return Chart(
        8 + 12 * MONTH_WIDTH, TOP + CHART_HEIGHT + 28, TOP + CHART_HEIGHT, tuple(bars), tuple(labels), legend
    )


def checklist_rows(inspection: Inspection, on: dt.date) -> list[dict[str, Any]]:
    """The items the inspection must cover, with label, hint and rendered citations."""
    checklist = lawbridge.checklist(inspection.regime_id)
    return [
        {
            "code": item.code,
            "label": item.label,
            "hint": item.hint,
            "cites": lawbridge.item_citations(inspection.regime_id, item, on),
        }
        for item in checklist.items_for(inspection.checklist_kind)
    ]
