"""What each registry list exports (apps.web.exports does the CSV/XLSX): headers as on screen, one value each.

CPF, CNH and contacts are personal data: their columns are marked, so the export is audited.
"""

from __future__ import annotations

from typing import Any

from apps.tenancy.regimes import regime_summary
from apps.web.exports import Column, ExportSpec, attr


def _regime(row: Any) -> str:
    return regime_summary(row.regime_id)[0]


def _operator_regime(row: Any) -> str:
    return regime_summary(row.operator.regime_id)[0] if row.operator is not None else ""


def _person_contact(name: str) -> Any:
    return lambda operator: getattr(operator.person or operator.company, name, "")


OPERATORS = ExportSpec(
    name="autorizatarios",
    title="Autorizatários",
    columns=(
        Column("Titular", attr("holder_name")),
        Column("CPF/CNPJ", attr("holder_document"), personal=True),
        Column("Tipo", attr("get_kind_display")),
        Column("Regime", _regime),
        Column("Situação", attr("get_status_display")),
        Column("Cadastrado em", attr("registered_on")),
        Column("Condutores ativos", attr("driver_count")),
        Column("Veículos", attr("vehicle_count")),
        Column("E-mail", _person_contact("email"), personal=True),
        Column("Telefone", _person_contact("phone"), personal=True),
    ),
)

DRIVERS = ExportSpec(
    name="condutores",
    title="Condutores",
    columns=(
        Column("Nome", attr("person.name")),
        Column("CPF", attr("person.cpf_display"), personal=True),
        Column("Função", attr("get_role_display")),
        Column("Autorizatário", attr("operator.holder_name")),
        Column("Regime", _operator_regime),
        Column("Veículo", attr("vehicle.plate_display")),
        Column("Número da CNH", attr("cnh_number"), personal=True),
        Column("Categoria da CNH", attr("cnh_category")),
        Column("CNH com EAR", attr("cnh_ear")),
        Column("Validade da CNH", attr("cnh_expiry")),
        Column("Curso especializado concluído em", attr("course_completed_on")),
        Column("Ativo", attr("active")),
    ),
    select_related=("person", "operator__person", "operator__company", "vehicle"),
)

VEHICLES = ExportSpec(
    name="veiculos",
    title="Veículos",
    columns=(
        Column("Placa", attr("plate_display")),
        Column("RENAVAM", attr("renavam")),
        Column("Marca", attr("make")),
        Column("Modelo", attr("model")),
        Column("Ano de fabricação", attr("manufacture_year")),
        Column("Ano do modelo", attr("model_year")),
        Column("Lugares", attr("seats")),
        Column("Categoria", attr("get_category_display")),
        Column("Autorizatário", attr("operator.holder_name")),
        Column("Regime", _operator_regime),
        Column("Proprietário", attr("owner_name"), personal=True),
        Column("Vínculo com o veículo", attr("get_ownership_kind_display")),
        Column("Última manutenção", attr("last_maintenance")),
    ),
    select_related=("operator__person", "operator__company"),
)

DOCUMENTS = ExportSpec(
    name="documentos",
    title="Documentos",
    columns=(
        Column("Tipo", attr("get_kind_display")),
        Column("Documento de", lambda document: str(document.owner or "")),
        Column("Data de emissão", attr("issue_date")),
        Column("Validade impressa", attr("expiry_date")),
        Column("Válido até", attr("valid_until")),
        Column("Situação", attr("get_status_display")),
        Column("Enviado em", attr("uploaded_at")),
    ),
    select_related=("municipality", "person", "company", "vehicle", "operator__person", "operator__company"),
)
