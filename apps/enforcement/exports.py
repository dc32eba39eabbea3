"""What the list of autos de infração exports (apps.web.exports writes the CSV/XLSX)."""

from __future__ import annotations

from typing import Any

from apps.enforcement.citations import infraction_cite_text
from apps.finance.formatting import payer_document_display
from apps.tenancy.regimes import regime_summary
from apps.web.exports import Column, ExportSpec, attr


def _regime(row: Any) -> str:
    return regime_summary(row.regime_id)[0]


def _offender(case: Any) -> str:
    if case.operator is not None:
        return str(case.operator.holder_name)
    return str(case.offender_name)


def _offender_document(case: Any) -> str:
    if case.operator is not None:
        return str(case.operator.holder_document)
    return payer_document_display(case.offender_document) if case.offender_document else ""


CASES = ExportSpec(
    name="autos-de-infracao",
    title="Autos de infração",
    columns=(
        Column("Número", attr("number")),
        Column("Regime", _regime),
        Column("Infração", attr("infraction_title")),
        Column(
            "Dispositivo infringido",
            lambda case: infraction_cite_text(case.regime_id, case.infraction_cite, case.drawn_on),
        ),
        Column("Data e hora da infração", attr("occurred_at")),
        Column("Lavrado em", attr("drawn_on")),
        Column("Local", attr("place")),
        Column("Placa", attr("plate")),
        Column("Autuado", _offender),
        Column("CPF/CNPJ do autuado", _offender_document, personal=True),
        Column("Sem autorização (clandestino)", attr("clandestine")),
        Column("Agente", attr("agent_name_at_time")),
        Column("Prazo para notificação da penalidade", attr("notice_limit")),
        Column("Penalidade notificada em", attr("penalty_notified_on")),
        Column("Situação", attr("get_state_display")),
    ),
    select_related=("operator__person", "operator__company"),
)
