"""The payment guide as a one-page A4 PDF (reportlab), with its PIX QR code drawn as vectors (segno).

What a payer and an auditor need on paper: who pays, what for, under which article, the quantity in its fiscal
unit with the unit value and the date it was valued on, the amount in reais, the due date, and the PIX QR code
with its "copia e cola" text.
"""

from __future__ import annotations

import io

import segno
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from apps.finance.formatting import brl, brl_unit_value, decimal_pt, payer_document_display
from apps.finance.models import PaymentGuide
from apps.signing.kinds import document_kind
from apps.signing.services import document_issue
from apps.tenancy.regimes import regime_summary

MM: float = mm  # reportlab is untyped; one millimetre in points
LEFT = 20 * MM
RIGHT = A4[0] - 20 * MM
QR_SIZE = 55 * MM
PAYLOAD_CHARS_PER_LINE = 70

KIND = document_kind("payment_guide", "Guia de pagamento")


def guide_pdf(guide: PaymentGuide) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"Guia de pagamento {guide.number}")
    canvas.setAuthor(f"Prefeitura de {guide.municipality.name}")
    y = _header(canvas, guide, A4[1] - 20 * MM)
    y = _rows(canvas, _identification_rows(guide), y)
    y = _rows(canvas, _amount_rows(guide), y - 4 * MM)
    _pix_block(canvas, guide, y - 8 * MM)
    _footer(canvas, guide)
    canvas.showPage()
    canvas.save()
    return document_issue(
        actor=None,
        municipality=guide.municipality,
        kind=KIND,
        title=f"Guia de pagamento nº {guide.number}",
        content=buffer.getvalue(),
        subject=guide,
    )


def _header(canvas: Canvas, guide: PaymentGuide, y: float) -> float:
    canvas.setFont("Helvetica-Bold", 15)
    canvas.drawString(LEFT, y, f"Prefeitura de {guide.municipality.name}-{guide.municipality.uf}")
    canvas.setFont("Helvetica", 10)
    canvas.drawString(
        LEFT, y - 6 * MM, "Guia de recolhimento de taxa ou multa — transporte regulado de passageiros"
    )
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawRightString(RIGHT, y, f"Guia nº {guide.number}")
    canvas.setFont("Helvetica", 10)
    canvas.drawRightString(RIGHT, y - 6 * MM, f"Situação: {guide.get_status_display()}")
    canvas.setStrokeColor(colors.HexColor("#1351b4"))
    canvas.setLineWidth(1.2)
    canvas.line(LEFT, y - 10 * MM, RIGHT, y - 10 * MM)
    return y - 18 * MM


def _identification_rows(guide: PaymentGuide) -> list[tuple[str, str]]:
    return [
        ("Contribuinte", guide.payer_name),
        ("CPF/CNPJ", payer_document_display(guide.payer_document)),
        ("Descrição", guide.description),
        ("Fundamento legal", guide.legal_basis),
        ("Emissão", f"{guide.issued_on:%d/%m/%Y}"),
    ]


def _amount_rows(guide: PaymentGuide) -> list[tuple[str, str]]:
    rows = []
    if guide.is_unit_converted:
        rows.append(("Quantidade", f"{decimal_pt(guide.quantity)} {guide.get_unit_display()}"))
    if guide.is_unit_converted and guide.unit_value_used is not None and guide.valuation_date is not None:
        rows.append(
            (
                f"Valor da {guide.get_unit_display()}",
                f"{brl_unit_value(guide.unit_value_used)} (vigente em {guide.valuation_date:%d/%m/%Y})",
            )
        )
    rows += [("Valor a pagar", brl(guide.amount_brl)), ("Vencimento", f"{guide.due_on:%d/%m/%Y}")]
    return rows


def _rows(canvas: Canvas, rows: list[tuple[str, str]], y: float) -> float:
    for label, value in rows:
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(LEFT, y, f"{label}:")
        canvas.setFont(
            "Helvetica-Bold" if label == "Valor a pagar" else "Helvetica",
            13 if label == "Valor a pagar" else 10,
        )
        canvas.drawString(LEFT + 42 * MM, y, value)
        y -= 7 * MM
    return y


def _pix_block(canvas: Canvas, guide: PaymentGuide, top: float) -> None:
    canvas.setFont("Helvetica-Bold", 11)
    canvas.drawString(LEFT, top, "Pague com PIX: leia o QR code no aplicativo do seu banco")
    _draw_qr(canvas, guide.pix_payload, LEFT, top - 4 * MM - QR_SIZE)
    text_x = LEFT + QR_SIZE + 8 * MM
    canvas.setFont("Helvetica-Bold", 9)
    canvas.drawString(text_x, top - 10 * MM, "Ou use o PIX copia e cola:")
    canvas.setFont("Courier", 7.5)
    line_y = top - 16 * MM
    width = PAYLOAD_CHARS_PER_LINE - 22
    for start in range(0, len(guide.pix_payload), width):
        canvas.drawString(text_x, line_y, guide.pix_payload[start : start + width])
        line_y -= 4 * MM


def _draw_qr(canvas: Canvas, payload: str, x: float, y: float) -> None:
    """Vector QR (quiet zone of 4 modules): sharp at any zoom and any printer."""
    qr = segno.make(payload, error="m", micro=False)
    matrix = list(qr.matrix_iter(scale=1, border=4))
    module = QR_SIZE / len(matrix)
    canvas.setFillColor(colors.black)
    for row_index, row in enumerate(matrix):
        for column_index, dark in enumerate(row):
            if dark:
                top = y + QR_SIZE - (row_index + 1) * module
                canvas.rect(x + column_index * module, top, module, module, stroke=0, fill=1)


def pix_qr_svg(payload: str) -> str:
    """The same QR code for the guide page: inline SVG, no image file, no JavaScript."""
    qr = segno.make(payload, error="m", micro=False)
    return str(qr.svg_inline(scale=4, border=4, title="QR code PIX"))


def _footer(canvas: Canvas, guide: PaymentGuide) -> None:
    canvas.setFont("Helvetica", 8)
    canvas.setFillColor(colors.HexColor("#555555"))
    lines = (
        f"{regime_summary(guide.regime_id)[0]}. O valor em reais foi calculado na emissão, conforme a lei, e não "
        "muda depois.",
        "Após o pagamento, o comprovante é registrado pelo setor financeiro da prefeitura.",
    )
    for index, line in enumerate(lines):
        canvas.drawString(LEFT, (20 - 5 * index) * MM, line)
