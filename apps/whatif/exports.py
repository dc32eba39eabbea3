"""The downloadable list of a what-if: every record the change flips, and why (apps.web.exports streams it)."""

from apps.web.exports import Column, ExportSpec, attr

WHATIF_OUTCOMES = ExportSpec(
    name="simulacao",
    title="Registros que mudam",
    columns=(
        Column("Registro", attr("get_subject_kind_display")),
        Column("Identificação", attr("label")),
        Column("Placa", attr("vehicle_plate")),
        Column("Titular", attr("holder")),
        Column("Resultado hoje", attr("before")),
        Column("Resultado com a mudança", attr("after")),
        Column("O que muda", attr("finding")),
        Column("Dispositivo", attr("articles")),
        Column("Contrafactual", attr("counterfactual")),
    ),
)
