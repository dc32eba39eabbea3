"""The monthly report as a printable A4 PDF (reportlab), for the Câmara and the Tribunal de Contas.

The same sections as the page, each as a table with its notes, so the printed copy reads without the charts.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from apps.reports.deadlines import AtRisk
from apps.reports.selectors import MONTHS_PT, Section
from apps.signing.kinds import document_kind
from apps.signing.services import document_issue
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import regime_summary

BLUE = colors.HexColor("#1351b4")
STYLES = getSampleStyleSheet()
TITLE = ParagraphStyle("title", parent=STYLES["Title"], fontSize=15, alignment=0, spaceAfter=2 * mm)
HEADING = ParagraphStyle("heading", parent=STYLES["Heading2"], fontSize=12, textColor=BLUE)
BODY = ParagraphStyle("body", parent=STYLES["BodyText"], fontSize=9, leading=11)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=10)

KIND = document_kind("monthly_report", "Relatório mensal")


def monthly_report_pdf(
    municipality: Municipality,
    sections: Sequence[Section],
    *,
    month: dt.date,
    regime: str,
    as_of: dt.date,
    deadlines: Sequence[AtRisk] = (),
) -> bytes:
    buffer = io.BytesIO()
    title = f"Relatório mensal — {MONTHS_PT[month.month - 1]}/{month:%Y}"
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=16 * mm,
        title=title,
        author=f"Prefeitura de {municipality.name}",
    )
    story: list[Flowable] = [
        Paragraph(escape(f"Prefeitura de {municipality.name}-{municipality.uf}"), TITLE),
        Paragraph(escape(title), HEADING),
        Paragraph(escape(_scope(regime, as_of)), BODY),
        Spacer(1, 4 * mm),
    ]
    for section in sections:
        story.extend(_section(section))
    if not sections:
        story.append(Paragraph("Nenhuma seção disponível para o seu perfil.", BODY))
    story.extend(_deadlines(deadlines, as_of))
    document.build(story)
    return document_issue(
        actor=None, municipality=municipality, kind=KIND, title=title, content=buffer.getvalue()
    )


def _scope(regime: str, as_of: dt.date) -> str:
    which = regime_summary(regime)[0] if regime else "todos os regimes do município"
    return f"Regime: {which}. Dados de {as_of:%d/%m/%Y}; cada mês conta até o seu último dia."


def _table(rows: list[list[Any]]) -> Table:
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8eef8")),
                ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#9e9e9e")),
                ("FONTSIZE", (0, 1), (-1, -1), 8),
                ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    return table


def _deadlines(deadlines: Sequence[AtRisk], as_of: dt.date) -> list[Flowable]:
    """The legal deadlines still open that end within the coming 30 days (or already passed)."""
    parts: list[Flowable] = [Paragraph("Prazos legais em risco (próximos 30 dias)", HEADING)]
    if not deadlines:
        return [*parts, Paragraph("Nenhum prazo legal em aberto vence nos próximos 30 dias.", BODY)]
    header = [Paragraph(escape(text), CELL) for text in ("Prazo", "Situação", "O quê", "Fundamento")]
    rows = [
        [
            f"{item.due_on:%d/%m/%Y}",
            Paragraph(escape(item.status(as_of)), CELL),
            Paragraph(escape(f"{item.kind.label}: {item.what}"), CELL),
            Paragraph(escape(item.cite), CELL),
        ]
        for item in deadlines
    ]
    table = _table([header, *rows])
    table.setStyle(TableStyle([("ALIGN", (1, 1), (-1, -1), "LEFT")]))
    return [*parts, table, Spacer(1, 4 * mm)]


def _section(section: Section) -> list[Flowable]:
    header = [Paragraph(escape(section.title), CELL)] + [
        Paragraph(escape(s.label), CELL) for s in section.series
    ]
    rows = [
        [Paragraph(escape(category), CELL)] + [section.text(value) for value in values]
        for category, values in section.rows
    ]
    table = _table([header, *rows])
    parts: list[Flowable] = [Paragraph(escape(section.title), HEADING), table]
    if section.is_empty:
        parts.append(Paragraph("Nenhum registro no período.", BODY))
    parts.extend(Paragraph(escape(note), BODY) for note in section.notes)
    parts.append(Spacer(1, 4 * mm))
    return parts
