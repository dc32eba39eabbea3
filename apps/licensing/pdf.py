"""The permit as a one-page A4 PDF (reportlab), with a QR code (segno, drawn as vectors) that points at the
public verification page of its unguessable token. What an agent on the street and the holder need: who,
which vehicle, number, validity, the legal basis the law engine cited, and how to check it is genuine.
"""

from __future__ import annotations

import io

import segno
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

import lawcode
from apps.licensing.models import Permit
from apps.licensing.naming import permit_title
from apps.registry.choices import OperatorKind
from apps.registry.identifiers import mask_cpf
from apps.signing.kinds import document_kind
from apps.signing.services import document_issue

LEFT = 20 * mm
RIGHT = A4[0] - 20 * mm
QR_SIZE = 45 * mm
BLUE = colors.HexColor("#1351b4")
KIND = document_kind("permit", "Autorização (porte no veículo)")


def permit_pdf(permit: Permit, verify_url: str) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{permit_title(permit)} nº {permit.number}")
    canvas.setAuthor(f"Prefeitura de {permit.municipality.name}")
    y = _header(canvas, permit, A4[1] - 20 * mm)
    y = _rows(canvas, _rows_of(permit), y)
    y = _legal_basis(canvas, permit, y - 4 * mm)
    y = _clauses(canvas, permit, y - 2 * mm)
    _qr_block(canvas, verify_url, y - 6 * mm)
    canvas.showPage()
    canvas.save()
    return document_issue(
        actor=None,
        municipality=permit.municipality,
        kind=KIND,
        title=f"{permit.get_kind_display()} nº {permit.number}",
        content=buffer.getvalue(),
        subject=permit,
        own_qr=True,
    )


def _header(canvas: Canvas, permit: Permit, y: float) -> float:
    municipality = permit.municipality
    canvas.setFont("Helvetica-Bold", 15)
    canvas.drawString(LEFT, y, f"Prefeitura de {municipality.name}-{municipality.uf}")
    canvas.setFont("Helvetica", 10)
    canvas.drawString(LEFT, y - 6 * mm, lawcode.get_regime(permit.regime_id).name[:95])
    canvas.setFont("Helvetica-Bold", 13)
    canvas.drawRightString(RIGHT, y, permit_title(permit)[:40])
    canvas.drawRightString(RIGHT, y - 6 * mm, f"nº {permit.number}")
    canvas.setStrokeColor(BLUE)
    canvas.setLineWidth(1.2)
    canvas.line(LEFT, y - 10 * mm, RIGHT, y - 10 * mm)
    return float(y - 18 * mm)


def _holder_document(permit: Permit) -> str:
    """The permit travels inside the vehicle, read by anyone: a company's CNPJ is public, a person's CPF is
    masked (***.982.247-**, LGPD art. 6º, III — enough for an agent to compare with the holder's document)."""
    person = permit.operator.person
    if permit.operator.kind == OperatorKind.PF and person is not None:
        return mask_cpf(person.cpf)
    return permit.operator.holder_document


def _rows_of(permit: Permit) -> list[tuple[str, str]]:
    vehicle, operator = permit.vehicle, permit.operator
    rows = [
        ("Autorizatário", operator.holder_name),
        ("CPF/CNPJ", _holder_document(permit)),
        ("Veículo", f"{vehicle.make} {vehicle.model} — {vehicle.manufacture_year}/{vehicle.model_year}"),
        ("Placa", vehicle.plate_display),
        ("RENAVAM", vehicle.renavam),
        ("Lotação", f"{vehicle.seats} lugares"),
    ]
    if permit.driver is not None:
        rows.append(("Condutor emergencial", permit.driver.person.name))
    rows += [
        ("Emitido em", f"{permit.issued_on:%d/%m/%Y}"),
        (
            "Validade",
            f"{permit.valid_from:%d/%m/%Y} a {permit.valid_until:%d/%m/%Y}"
            if permit.valid_until
            else f"a partir de {permit.valid_from:%d/%m/%Y}, enquanto durar o impedimento",
        ),
        ("Situação", permit.get_state_display()),
    ]
    return rows


def _rows(canvas: Canvas, rows: list[tuple[str, str]], y: float) -> float:
    for label, value in rows:
        canvas.setFont("Helvetica-Bold", 10)
        canvas.drawString(LEFT, y, label)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(LEFT + 45 * mm, y, value[:85])
        y -= 7 * mm
    return y


def _legal_basis(canvas: Canvas, permit: Permit, y: float) -> float:
    cited = [c["text"] for c in permit.decision.get("citations", [])][:6]
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(LEFT, y, "Fundamento legal")
    canvas.setFont("Helvetica", 9)
    for text in cited or ["—"]:
        y -= 5 * mm
        canvas.drawString(LEFT + 4 * mm, y, text[:100])
    return float(y - 3 * mm)


def _clauses(canvas: Canvas, permit: Permit, y: float) -> float:
    """The clauses the law prints on its instrument (labels.yaml), each with its article."""
    regime = lawcode.get_regime(permit.regime_id)
    clauses = regime.vocabulary.labels.instrument.clauses
    if not clauses:
        return y
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(LEFT, y, "Condições")
    canvas.setFont("Helvetica", 9)
    for clause in clauses:
        y -= 5 * mm
        cite = regime.resolve_citation(clause.cite, permit.issued_on).render()
        canvas.drawString(LEFT + 4 * mm, y, f"{clause.text} ({cite})"[:110])
    return float(y - 3 * mm)


def _qr_block(canvas: Canvas, verify_url: str, y: float) -> None:
    top = y
    _draw_qr(canvas, verify_url, LEFT, top - QR_SIZE, QR_SIZE)
    x = LEFT + QR_SIZE + 8 * mm
    canvas.setFont("Helvetica-Bold", 11)
    canvas.drawString(x, top - 8 * mm, "Verifique a autenticidade")
    canvas.setFont("Helvetica", 9)
    canvas.drawString(x, top - 14 * mm, "Aponte a câmera do celular para o código ao lado ou acesse:")
    canvas.setFont("Courier", 8)
    canvas.drawString(x, top - 20 * mm, verify_url[:70])
    canvas.setFont("Helvetica", 8)
    canvas.drawString(
        x, top - 28 * mm, "Documento válido somente se a página de verificação confirmar a situação."
    )


def _draw_qr(canvas: Canvas, data: str, x: float, y: float, size: float) -> None:
    """Each dark module as a filled square: crisp at any zoom, no image library needed."""
    qr = segno.make(data, error="m", micro=False)
    matrix = [list(row) for row in qr.matrix]
    border = 2
    modules = len(matrix) + 2 * border
    cell = size / modules
    canvas.setFillColor(colors.black)
    for row_index, row in enumerate(matrix):
        for col_index, dark in enumerate(row):
            if dark:
                left = x + (col_index + border) * cell
                bottom = y + size - (row_index + border + 1) * cell
                canvas.rect(left, bottom, cell, cell, stroke=0, fill=1)
