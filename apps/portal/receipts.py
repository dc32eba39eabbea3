"""The payment receipt (comprovante) a portal user downloads for a paid guide: what was paid, when, how and
for what, as the finance office registered it. Drawn with reportlab, like the guide itself."""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from apps.finance.formatting import brl, payer_document_display
from apps.finance.models import Payment, PaymentGuide
from apps.signing.kinds import document_kind
from apps.signing.services import document_issue

MM: float = mm  # reportlab is untyped; one millimetre in points
LEFT = 20 * MM
RIGHT = A4[0] - 20 * MM

KIND = document_kind("payment_receipt", "Comprovante de pagamento")


def receipt_rows(guide: PaymentGuide, payment: Payment) -> list[tuple[str, str]]:
    return [
        ("Guia", guide.number),
        ("Contribuinte", guide.payer_name),
        ("CPF/CNPJ", payer_document_display(guide.payer_document)),
        ("Referente a", guide.description),
        ("Fundamento legal", guide.legal_basis),
        ("Valor da guia", brl(guide.amount_brl)),
        ("Valor pago", brl(payment.amount_brl)),
        ("Pago em", f"{payment.paid_on:%d/%m/%Y}"),
        ("Forma de pagamento", payment.get_method_display()),
        ("Identificador do pagamento", payment.reference or "—"),
    ]


def payment_receipt_pdf(guide: PaymentGuide, payment: Payment) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"Comprovante de pagamento da guia {guide.number}")
    canvas.setAuthor(f"Prefeitura de {guide.municipality.name}")
    y = _header(canvas, guide, A4[1] - 20 * MM)
    for label, value in receipt_rows(guide, payment):
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(LEFT, y, label)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(LEFT + 55 * MM, y, value[:80])
        y -= 7 * MM
    canvas.setFont("Helvetica", 8)
    canvas.setFillColor(colors.HexColor("#555555"))
    canvas.drawString(
        LEFT,
        20 * MM,
        "Pagamento registrado pelo setor financeiro da prefeitura. Documento emitido "
        "pelo portal do autorizatário.",
    )
    canvas.showPage()
    canvas.save()
    return document_issue(
        actor=None,
        municipality=guide.municipality,
        kind=KIND,
        title=f"Comprovante de pagamento da guia nº {guide.number}",
        content=buffer.getvalue(),
        subject=payment,
    )


def _header(canvas: Canvas, guide: PaymentGuide, y: float) -> float:
    canvas.setFont("Helvetica-Bold", 15)
    canvas.drawString(LEFT, y, f"Prefeitura de {guide.municipality.name}-{guide.municipality.uf}")
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawString(LEFT, y - 7 * MM, "Comprovante de pagamento")
    canvas.setStrokeColor(colors.HexColor("#1351b4"))
    canvas.setLineWidth(1.2)
    canvas.line(LEFT, y - 11 * MM, RIGHT, y - 11 * MM)
    return y - 20 * MM
