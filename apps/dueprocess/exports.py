"""What the appeal queues export (apps.web.exports writes the CSV/XLSX)."""

from __future__ import annotations

from apps.web.exports import Column, ExportSpec, attr

APPEALS = ExportSpec(
    name="recursos",
    title="Recursos",
    columns=(
        Column("Auto de infração", attr("case.number")),
        Column("Infração", attr("case.infraction_title")),
        Column("Instância", attr("get_instance_display")),
        Column("Recorrente", attr("appellant_name")),
        Column("Autorizatário", attr("case.operator.holder_name")),
        Column("Protocolado em", attr("filed_on")),
        Column("Prazo para recorrer", attr("deadline")),
        Column("Fora do prazo", attr("late")),
        Column("Prazo para julgamento", attr("judgment_deadline")),
    ),
)

DEBTS = ExportSpec(
    name="divida-ativa",
    title="Dívida ativa",
    columns=(
        Column("Devedor", attr("debtor_name")),
        Column("CPF/CNPJ", attr("debtor_document"), personal=True),
        Column("Tipo de documento", attr("debtor_kind")),
        Column("Auto de infração", attr("case_number")),
        Column("Infração (código)", attr("infraction_code")),
        Column("Infração", attr("infraction_title")),
        Column("Origem", attr("origin")),
        Column("Fundamento legal", attr("legal_basis")),
        Column("Guia", attr("guide_number")),
        Column("Quantidade", attr("quantity")),
        Column("Unidade", attr("unit")),
        Column("Valor da unidade (R$)", attr("unit_value_brl")),
        Column("Data de valoração da unidade", attr("valuation_date")),
        Column("Valor (R$)", attr("amount_brl")),
        Column("Data da infração", attr("infraction_date")),
        Column("Decisão definitiva em", attr("final_decision_date")),
        Column("Guia emitida em", attr("guide_issued_on")),
        Column("Vencimento", attr("due_on")),
        Column("Dias em atraso", attr("days_overdue")),
    ),
)
