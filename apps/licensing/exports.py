"""What the application and permit lists export (apps.web.exports writes the CSV/XLSX)."""

from __future__ import annotations

from typing import Any

from apps.tenancy.regimes import regime_summary
from apps.web.exports import Column, ExportSpec, attr


def _regime(row: Any) -> str:
    return regime_summary(row.regime_id)[0]


def _subject(application: Any) -> str:
    """The vehicle or the person the application is about, as the list shows it."""
    if application.vehicle is not None:
        return str(application.vehicle.plate_display)
    return application.driver.person.name if application.driver is not None else ""


APPLICATIONS = ExportSpec(
    name="requerimentos",
    title="Requerimentos",
    columns=(
        Column("Número", attr("number")),
        Column("Tipo", attr("get_kind_display")),
        Column("Regime", _regime),
        Column("Autorizatário", attr("operator.holder_name")),
        Column("CPF/CNPJ do autorizatário", attr("operator.holder_document"), personal=True),
        Column("Veículo / condutor", _subject),
        Column("Protocolado em", attr("submitted_on")),
        Column("Prazo para sanar", attr("cure_deadline")),
        Column("Decidido em", attr("decided_on")),
        Column("Situação", attr("get_state_display")),
    ),
)

PERMITS = ExportSpec(
    name="alvaras",
    title="Autorizações",
    columns=(
        Column("Número", attr("number")),
        Column("Tipo", attr("get_kind_display")),
        Column("Regime", _regime),
        Column("Autorizatário", attr("operator.holder_name")),
        Column("CPF/CNPJ do autorizatário", attr("operator.holder_document"), personal=True),
        Column("Placa", attr("vehicle.plate_display")),
        Column("Emitido em", attr("issued_on")),
        Column("Válido de", attr("valid_from")),
        Column("Válido até", attr("valid_until")),
        Column("Próxima vistoria até", attr("inspection_due_on")),
        Column("Vistoria atrasada", attr("inspection_overdue")),
        Column("Suspenso até", attr("suspended_until")),
        Column("Situação", attr("get_state_display")),
    ),
)
