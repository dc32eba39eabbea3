"""What the inspection calendar exports: the inspections scheduled in the month on screen (apps.web.exports)."""

from __future__ import annotations

from typing import Any

from apps.tenancy.regimes import regime_summary
from apps.web.exports import Column, ExportSpec, attr


def _regime(row: Any) -> str:
    return regime_summary(row.regime_id)[0]


def _inspector(row: Any) -> str:
    inspector = row.inspector
    return (
        (getattr(inspector, "display_name", "") or inspector.get_username()) if inspector is not None else ""
    )


INSPECTIONS = ExportSpec(
    name="vistorias",
    title="Vistorias",
    columns=(
        Column("Placa", attr("vehicle.plate_display")),
        Column("Regime", _regime),
        Column("Tipo", attr("get_kind_display")),
        Column("Agendada para", attr("scheduled_for")),
        Column("Prazo legal", attr("deadline")),
        Column("Fundamento do prazo", attr("deadline_basis")),
        Column("Realizada em", attr("performed_on")),
        Column("Resultado", attr("get_result_display")),
        Column("Prazo para regularizar", attr("cure_deadline")),
        Column("Vistoriador", _inspector),
    ),
    select_related=("vehicle", "inspector"),
)
