"""The subject-access report (LGPD arts. 9, 18 II and 19) as an A4 PDF: what Outorga holds on the person, why, on
which legal basis, and who read or changed it and when."""

from __future__ import annotations

import io
from collections.abc import Iterable
from datetime import datetime
from xml.sax.saxutils import escape

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from apps.audit.labels import action_label, is_read, summary_lines
from apps.audit.models import AuditEvent
from apps.privacy.subjects import HeldRecord, Subject
from apps.signing.kinds import document_kind
from apps.signing.services import document_issue

MM: float = mm
_STYLES = getSampleStyleSheet()
BODY = ParagraphStyle("body", parent=_STYLES["BodyText"], fontSize=9, leading=11.5)
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8, leading=10)
H1 = ParagraphStyle("h1", parent=_STYLES["Heading1"], fontSize=15, spaceAfter=4)
H2 = ParagraphStyle("h2", parent=_STYLES["Heading2"], fontSize=12, spaceBefore=8, spaceAfter=3)
H3 = ParagraphStyle("h3", parent=_STYLES["Heading3"], fontSize=10, spaceBefore=6, spaceAfter=2)
GRID = TableStyle(
    [
        ("GRID", (0, 0), (-1, -1), 0.4, colors.HexColor("#888888")),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6eef8")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
)

KIND = document_kind("subject_report", "Relatório do titular de dados (LGPD)")


def _p(text: str, style: ParagraphStyle = BODY) -> Paragraph:
    return Paragraph(escape(text), style)


def subject_report_pdf(subject: Subject, events: Iterable[AuditEvent], *, generated_by: str) -> bytes:
    person = subject.person
    buffer = io.BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * MM,
        rightMargin=18 * MM,
        topMargin=16 * MM,
        bottomMargin=16 * MM,
        title=f"Relatório do titular — {person.name}",
        author=f"Prefeitura de {person.municipality.name}",
    )
    story: list[object] = [
        _p(f"Prefeitura de {person.municipality.name}-{person.municipality.uf}", H3),
        _p("Relatório de dados pessoais do titular (LGPD)", H1),
        _p(
            f"Emitido em {_when(timezone.now())} por {generated_by}, encarregado(a) pelo tratamento de dados "
            "pessoais, em resposta ao direito de acesso do titular (Lei 13.709/2018, arts. 9º, 18, II, e 19)."
        ),
        _p("1. Dados que a prefeitura mantém sobre o titular, finalidade e base legal", H2),
    ]
    for record in subject.records:
        story += _record(record)
    story += [_p("2. Quem leu ou alterou os dados, e quando", H2)]
    story += _history(list(events))
    story += [
        Spacer(1, 6 * MM),
        _p(
            "Os valores pessoais não são copiados para a trilha de auditoria: nela, o CPF aparece mascarado e "
            "outros dados aparecem protegidos por hash com chave (LGPD art. 6º, III). O titular pode pedir a "
            "correção de dados incompletos, inexatos ou desatualizados (art. 18, III).",
            SMALL,
        ),
    ]
    document.build(story)
    return document_issue(
        actor=None,
        municipality=person.municipality,
        kind=KIND,
        title="Relatório de dados pessoais do titular (LGPD)",
        content=buffer.getvalue(),
    )


def _record(record: HeldRecord) -> list[object]:
    rows = [[_p("Dado"), _p("Valor")]] + [[_p(label), _p(value)] for label, value in record.facts]
    table = Table(rows, colWidths=[50 * MM, 124 * MM])
    table.setStyle(GRID)
    return [
        _p(record.title, H3),
        table,
        _p(f"Finalidade: {record.purpose}", SMALL),
        _p(f"Base legal: {record.legal_basis}", SMALL),
    ]


def _history(events: list[AuditEvent]) -> list[object]:
    if not events:
        return [_p("Nenhum registro de leitura ou alteração.")]
    rows = [[_p("Quando"), _p("Quem"), _p("Tipo"), _p("O quê"), _p("Detalhes")]]
    for event in events:
        details = "; ".join(
            f"{line.field}: {line.before} → {line.after}" if line.changed else f"{line.field}: {line.after}"
            for line in summary_lines(event.action, event.object_type, event.before, event.after)
        )
        if not details:
            details = "registro criado" if event.before is None else "—"
        rows.append(
            [
                _p(_when(event.occurred_at), SMALL),
                _p(event.actor_name, SMALL),
                _p("Leitura" if is_read(event.action) else "Alteração", SMALL),
                _p(action_label(event.action, event.object_type), SMALL),
                _p(details, SMALL),
            ]
        )
    table = Table(rows, colWidths=[26 * MM, 30 * MM, 18 * MM, 40 * MM, 60 * MM], repeatRows=1)
    table.setStyle(GRID)
    return [table]


def _when(moment: datetime) -> str:
    return f"{timezone.localtime(moment):%d/%m/%Y %H:%M}"
