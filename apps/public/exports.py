"""What the complaint queue exports (apps.web.exports writes the CSV/XLSX); the contact is personal data."""

from __future__ import annotations

from apps.web.exports import Column, ExportSpec, attr

COMPLAINTS = ExportSpec(
    name="denuncias",
    title="Denúncias",
    columns=(
        Column("Protocolo", attr("number")),
        Column("Problema", attr("get_category_display")),
        Column("Placa", attr("plate")),
        Column("Autorização informada", attr("permit_number")),
        Column("Data do fato", attr("occurred_on")),
        Column("Local", attr("place")),
        Column("Relato", attr("description")),
        Column("Fundamento", attr("basis")),
        Column("Contato para retorno", attr("contact"), personal=True),
        Column("Recebida em", attr("received_on")),
        Column("Situação", attr("get_state_display")),
        Column("Providências", attr("resolution")),
        Column("Encerrada em", attr("closed_on")),
    ),
)
