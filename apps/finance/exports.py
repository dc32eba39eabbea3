"""What the guide and refund lists export (apps.web.exports writes the CSV/XLSX); amounts stay numbers."""

from __future__ import annotations

from typing import Any

from apps.finance.formatting import payer_document_display
from apps.web.exports import Column, ExportSpec, attr


def _payer_document(row: Any) -> str:
    return payer_document_display(row.payer_document)


def _paid_on(guide: Any) -> Any:
    payment = getattr(guide, "payment", None)  # the reverse one-to-one raises when there is no payment
    return payment.paid_on if payment is not None else None


GUIDES = ExportSpec(
    name="guias",
    title="Guias",
    columns=(
        Column("Número", attr("number")),
        Column("Contribuinte", attr("payer_name")),
        Column("CPF/CNPJ do contribuinte", _payer_document, personal=True),
        Column("Descrição", attr("description")),
        Column("Origem", attr("get_origin_type_display")),
        Column("Fundamento legal", attr("legal_basis")),
        Column("Quantidade", attr("quantity")),
        Column("Unidade", attr("get_unit_display")),
        Column("Valor (R$)", attr("amount_brl")),
        Column("Emitida em", attr("issued_on")),
        Column("Vencimento", attr("due_on")),
        Column("Paga em", _paid_on),
        Column("Situação", attr("get_status_display")),
    ),
    select_related=("payment",),
)

REFUNDS = ExportSpec(
    name="restituicoes",
    title="Restituições",
    columns=(
        Column("Guia", attr("payment.guide.number")),
        Column("Contribuinte", attr("payment.guide.payer_name")),
        Column("Valor (R$)", attr("amount_brl")),
        Column("Motivo", attr("reason")),
        Column("Restituir até", attr("due_on")),
        Column("Situação", attr("get_status_display")),
        Column("Paga em", attr("paid_on")),
        Column("Comprovante", attr("paid_reference")),
    ),
    select_related=("payment__guide",),
)
