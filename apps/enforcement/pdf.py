"""The printed papers of a case (reportlab, A4): the auto de infração with every Olímpia art. 30 item and the
appeal deadline, each notice (in-person term, AR letter, electronic message) and the edital.

Texts are assembled here once and stored with the row (Notice.body, Edital.text), so the PDF can be printed
again identically later.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

import lawcode
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.citations import infraction_cite_text
from apps.registry.uploads import kind_label
from apps.signing.kinds import document_kind
from apps.signing.services import document_issue
from apps.tenancy.regimes import instrument_of

if TYPE_CHECKING:
    from apps.enforcement.models import Edital, InfractionCase, Notice

LEFT = 20 * mm
RIGHT = A4[0] - 20 * mm
BOTTOM = 20 * mm
BLUE = colors.HexColor("#1351b4")
FONT_SIZE = 10
LABEL_WIDTH = 55 * mm
AUTO = document_kind("auto", "Auto de infração")
NOTICE = document_kind("notice", "Notificação")
EDITAL = document_kind("edital", "Edital de notificação")


class Page:
    """A canvas that writes top-down and starts a new page when the text reaches the bottom margin."""

    def __init__(self, title: str, author: str) -> None:
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pagesize=A4, pageCompression=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor(author)
        self.y = A4[1] - 20 * mm

    def need(self, height: float) -> None:
        if self.y - height < BOTTOM:
            self.canvas.showPage()
            self.y = A4[1] - 20 * mm

    def header(self, municipality: str, subtitle: str, title: str, number: str) -> None:
        self.canvas.setFont("Helvetica-Bold", 14)
        self.canvas.drawString(LEFT, self.y, f"Prefeitura de {municipality}"[:60])
        self.canvas.setFont("Helvetica", 9)
        self.canvas.drawString(LEFT, self.y - 6 * mm, subtitle[:100])
        self.canvas.setFont("Helvetica-Bold", 12)
        self.canvas.drawRightString(RIGHT, self.y, title[:45])
        self.canvas.drawRightString(RIGHT, self.y - 6 * mm, number)
        self.canvas.setStrokeColor(BLUE)
        self.canvas.setLineWidth(1.2)
        self.canvas.line(LEFT, self.y - 10 * mm, RIGHT, self.y - 10 * mm)
        self.y -= 17 * mm

    def heading(self, text: str) -> None:
        self.need(10 * mm)
        self.canvas.setFont("Helvetica-Bold", 10.5)
        self.canvas.drawString(LEFT, self.y, text)
        self.y -= 6 * mm

    def paragraph(self, text: str, *, indent: float = 0, size: float = FONT_SIZE, bold: bool = False) -> None:
        font = "Helvetica-Bold" if bold else "Helvetica"
        for source_line in text.splitlines() or [""]:
            for line in simpleSplit(source_line, font, size, RIGHT - LEFT - indent) or [""]:
                self.need(size * 0.5 * mm + 5 * mm)
                self.canvas.setFont(font, size)
                self.canvas.drawString(LEFT + indent, self.y, line)
                self.y -= size * 0.45 * mm + 1.2 * mm
        self.y -= 2 * mm

    def rows(self, rows: Sequence[tuple[str, str]]) -> None:
        """Label and value side by side, both wrapped to their column."""
        for label, value in rows:
            labels = simpleSplit(label, "Helvetica-Bold", 9.5, LABEL_WIDTH - 3 * mm) or [""]
            values = simpleSplit(value or "—", "Helvetica", 9.5, RIGHT - LEFT - LABEL_WIDTH) or ["—"]
            self.need(5 * mm * max(len(labels), len(values)) + 2 * mm)
            top = self.y
            self._lines(labels, "Helvetica-Bold", LEFT)
            label_end, self.y = self.y, top
            self._lines(values, "Helvetica", LEFT + LABEL_WIDTH)
            self.y = min(self.y, label_end) - 1.5 * mm

    def _lines(self, lines: Sequence[str], font: str, x: float) -> None:
        self.canvas.setFont(font, 9.5)
        for line in lines:
            self.canvas.drawString(x, self.y, line)
            self.y -= 5 * mm

    def signature(self, label: str) -> None:
        self.need(25 * mm)
        self.y -= 14 * mm
        self.canvas.setLineWidth(0.6)
        self.canvas.setStrokeColor(colors.black)
        self.canvas.line(LEFT, self.y, LEFT + 85 * mm, self.y)
        self.canvas.setFont("Helvetica", 8.5)
        self.canvas.drawString(LEFT, self.y - 4 * mm, label)
        self.y -= 10 * mm

    def finish(self) -> bytes:
        self.canvas.showPage()
        self.canvas.save()
        return self.buffer.getvalue()


def _regime_name(regime_id: str) -> str:
    return lawcode.get_regime(regime_id).name


def _cite(case: InfractionCase) -> str:
    return infraction_cite_text(case.regime_id, case.infraction_cite, case.drawn_on)


def _when(case: InfractionCase) -> str:
    return f"{timezone.localtime(case.occurred_at):%d/%m/%Y às %H:%M}"


# --- the auto de infração ---------------------------------------------------------------------------------


def auto_rows(case: InfractionCase, fine_text: str, appeal_text: str) -> list[tuple[str, str]]:
    """Every item of Olímpia art. 30 (I–VIII), in its order, for the PDF and the case page."""
    evidence = [
        e.caption or f"Arquivo {kind_label(e.content_type)} (SHA-256 {e.sha256[:12]}…)"
        for e in case.evidence.all()
    ]
    return [
        ("I — Local, data e hora", f"{case.place or '(não informado)'} — {_when(case)}"),
        ("II — Condutor e veículo", _driver_vehicle(case)),
        (
            "III — Servidor responsável",
            f"{case.agent_name_at_time} — matrícula {case.agent_registration or '(não informada)'}",
        ),
        ("IV — Descrição e circunstâncias", _description(case)),
        ("V — Dispositivo infringido", f"{_cite(case)} — {case.infraction_title} ({case.infraction_code})"),
        ("VI — Documentos que embasam o auto", "; ".join(evidence) or "(nenhum anexado)"),
        ("VII — Penalidade / valor da multa", fine_text),
        ("VIII — Prazo para recurso", appeal_text),
    ]


def _description(case: InfractionCase) -> str:
    text = case.description or "(não informada)"
    return f"{text} Circunstâncias: {case.circumstances}" if case.circumstances else text


def _driver_vehicle(case: InfractionCase) -> str:
    vehicle = case.vehicle
    car = f"placa {case.plate}" + (f", {vehicle.make} {vehicle.model}" if vehicle else "")
    holder = (
        f"autorizatário {case.operator.holder_name}" if case.operator else "sem autorização (clandestino)"
    )
    permit = f", {instrument_of(case.permit.regime_id).short} {case.permit.number}" if case.permit else ""
    driver = f"Condutor: {case.driver_name}" if case.driver_name else "Condutor: (não identificado)"
    return f"{driver}. Veículo: {car}; {holder}{permit}."


def auto_pdf(case: InfractionCase, fine_text: str, appeal_text: str, warnings: Sequence[str]) -> bytes:
    page = Page(f"Auto de infração {case.number}", f"Prefeitura de {case.municipality.name}")
    page.header(
        f"{case.municipality.name}-{case.municipality.uf}",
        _regime_name(case.regime_id),
        "AUTO DE INFRAÇÃO",
        f"nº {case.number}",
    )
    page.rows([("Lavrado em", f"{case.drawn_on:%d/%m/%Y}"), ("Autuado", _offender(case))])
    page.heading("Elementos do auto")
    page.rows(auto_rows(case, fine_text, appeal_text))
    if case.already_punished_as_traffic_only:
        page.paragraph(
            f"Fato já punido exclusivamente como infração de trânsito ({case.traffic_only_reference}): "
            "não se aplica penalidade municipal.",
            bold=True,
        )
    for warning in warnings:
        page.paragraph(f"Aviso: {warning}", size=8.5)
    page.signature(f"{case.agent_name_at_time} — agente autuador")
    page.signature("Autuado (ciência) — ou registro da recusa em assinar")
    return document_issue(
        actor=None,
        municipality=case.municipality,
        kind=AUTO,
        title=f"Auto de infração nº {case.number}",
        content=page.finish(),
        subject=case,
        signed_by=f"{case.agent_name_at_time}, agente autuador" if case.agent_name_at_time else "",
    )


def _offender(case: InfractionCase) -> str:
    if case.operator is not None:
        return f"{case.operator.holder_name} ({case.operator.holder_document})"
    return case.offender_name or "(não identificado — transporte sem autorização)"


# --- notices ------------------------------------------------------------------------------------------------


def notice_body(notice: Notice, note: str = "") -> str:
    case = notice.case
    opening = {
        NoticePurpose.INFRACTION: f"Fica V. Sa. notificado(a) da lavratura do Auto de Infração nº {case.number}, "
        f"em {case.drawn_on:%d/%m/%Y}",
        NoticePurpose.FIRST_DECISION: f"Fica V. Sa. notificado(a) da decisão de 1ª instância no Auto de Infração "
        f"nº {case.number}",
        NoticePurpose.SECOND_DECISION: f"Fica V. Sa. notificado(a) da decisão de 2ª instância no Auto de Infração "
        f"nº {case.number}",
        NoticePurpose.FINAL_DECISION: f"Fica V. Sa. notificado(a) da penalidade definitiva imposta no Auto de "
        f"Infração nº {case.number}",
        NoticePurpose.PAYMENT: f"Fica V. Sa. notificado(a) a recolher a multa do Auto de Infração nº {case.number}",
    }[NoticePurpose(notice.purpose)]
    text = (
        f"{opening}, pela infração «{case.infraction_title}» ({_cite(case)}), ocorrida em {_when(case)}"
        f"{' em ' + case.place if case.place else ''}, veículo placa {case.plate}. "
        "Os prazos de defesa e de recurso contam da data da ciência desta notificação, "
        "na forma da lei municipal."
    )
    return text + (f"\n\n{note.strip()}" if note.strip() else "")


NOTICE_TITLES = {
    NoticeChannel.IN_PERSON: "TERMO DE NOTIFICAÇÃO PESSOAL",
    NoticeChannel.AR: "NOTIFICAÇÃO — CARTA REGISTRADA (AR)",
    NoticeChannel.ELECTRONIC: "NOTIFICAÇÃO ELETRÔNICA",
    NoticeChannel.EDITAL: "NOTIFICAÇÃO POR EDITAL",
}


def notice_pdf(notice: Notice) -> bytes:
    case = notice.case
    page = Page(f"Notificação — auto {case.number}", f"Prefeitura de {case.municipality.name}")
    page.header(
        f"{case.municipality.name}-{case.municipality.uf}",
        _regime_name(case.regime_id),
        NOTICE_TITLES[NoticeChannel(notice.channel)],
        f"Auto nº {case.number}",
    )
    page.rows(
        [
            ("Destinatário", notice.recipient_name),
            ("Endereço", notice.recipient_address),
            ("Finalidade", notice.get_purpose_display()),
            ("Expedida em", f"{notice.sent_on:%d/%m/%Y}"),
        ]
    )
    page.paragraph(notice.body)
    _notice_footer(page, notice)
    return document_issue(
        actor=None,
        municipality=case.municipality,
        kind=NOTICE,
        title=f"{notice.get_purpose_display()} — auto nº {case.number}",
        content=page.finish(),
        subject=notice,
    )


def _notice_footer(page: Page, notice: Notice) -> None:
    if notice.channel == NoticeChannel.IN_PERSON:
        if notice.refused:
            page.paragraph(
                f"O(a) notificado(a) recusou-se a assinar em {notice.sent_on:%d/%m/%Y}; "
                "a recusa é certificada pelo agente abaixo.",
                bold=True,
            )
        else:
            page.paragraph(f"Recebido em {notice.sent_on:%d/%m/%Y} por {notice.signature_name}.", bold=True)
        page.signature("Assinatura do notificado")
        page.signature("Agente responsável")
    elif notice.channel == NoticeChannel.AR:
        page.paragraph("Aviso de recebimento (AR): preencher no ato da entrega e devolver à Prefeitura.")
        page.signature("Recebedor — nome legível e data")
        page.paragraph(
            "Devolução: ( ) mudança de endereço  ( ) recusa  ( ) endereço inexistente  ( ) outro", size=8.5
        )
    if notice.ciencia_on:
        page.paragraph(f"Ciência em {notice.ciencia_on:%d/%m/%Y}.", bold=True)


# --- editais ---------------------------------------------------------------------------------------------------


def edital_text(edital: Edital, cases: Sequence[InfractionCase]) -> str:
    purpose = NoticePurpose(edital.purpose).label.lower()
    lines = [
        f"EDITAL Nº {edital.number}",
        f"A Prefeitura de {edital.municipality.name}, não tendo localizado os autuados abaixo relacionados, "
        f"torna pública a {purpose} referente aos autos de infração a seguir, nos termos da lei municipal "
        f"({_regime_name(edital.regime_id)}). A ciência considera-se efetivada na forma da lei, contando-se dela "
        "os prazos de defesa e de recurso.",
        "",
    ]
    for case in cases:
        holder = (
            case.operator.holder_name if case.operator else (case.offender_name or "autuado não identificado")
        )
        document = case.operator.holder_document if case.operator else case.offender_document
        lines.append(
            f"Auto {case.number} — {holder}{' (' + document + ')' if document else ''} — placa "
            f"{case.plate} — {case.infraction_title} ({_cite(case)}) — infração em {_when(case)}."
        )
    lines += ["", f"{edital.municipality.name}, {edital.published_on:%d/%m/%Y}."]
    return "\n".join(lines)


def edital_pdf(edital: Edital) -> bytes:
    page = Page(f"Edital {edital.number}", f"Prefeitura de {edital.municipality.name}")
    page.header(
        f"{edital.municipality.name}-{edital.municipality.uf}",
        _regime_name(edital.regime_id),
        "EDITAL DE NOTIFICAÇÃO",
        f"nº {edital.number}",
    )
    page.rows([("Publicado em", f"{edital.published_on:%d/%m/%Y}"), ("Publicação", edital.publication_ref)])
    page.paragraph(edital.text)
    return document_issue(
        actor=None,
        municipality=edital.municipality,
        kind=EDITAL,
        title=f"Edital nº {edital.number}",
        content=page.finish(),
        subject=edital,
    )
