"""What the audit trail exports (apps.web.exports writes the CSV/XLSX): the events as the list reads them."""

from __future__ import annotations

from typing import Any

from apps.audit.labels import action_label, object_label
from apps.web.exports import Column, ExportSpec, attr


def _action(event: Any) -> str:
    return action_label(event.action, event.object_type)


def _object(event: Any) -> str:
    return f"{object_label(event.object_type)} {event.object_id}".strip()


EVENTS = ExportSpec(
    name="auditoria",
    title="Auditoria",
    columns=(
        Column("Data e hora", attr("occurred_at")),
        Column("Município", attr("municipality.name")),
        Column("Autor", attr("actor_name"), personal=True),
        Column("Ação", _action),
        Column("Registro", _object),
        Column("Sequência na cadeia", attr("seq")),
        Column("Id da requisição", attr("request_id")),
        Column("Hash", attr("hash")),
    ),
)
