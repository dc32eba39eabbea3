"""Fact fields beyond the common schema, declared by a regime in ``facts.yaml``.

A law may ask something the common facts classes have no field for (are children under 12 aboard? what is the
CNH's status? how many years has the licence been held in the category?). The regime declares the question,
typed and labelled, per entity; the facts carry the answers in the entity's ``extra`` mapping::

    fields:
      vehicle:
        children_under_12_aboard:
          type: bool
          label: Transporta crianças menores de 12 anos?
          help: Exigência de cadeirinha e cinto (CTB art. 64).
          cite: art12_incIV
      driver:
        cnh_status:
          type: choice
          label: Situação da CNH
          choices: {regular: Regular, suspended: Suspensa, cancelled: Cassada}
          cite: art5_incII

Entities: operator, company, driver, attendant, vehicle, application (PermitApplication), infraction
(InfractionCase) and inspection (InspectionFacts). A rule reads
``facts.vehicle.extra.get("children_under_12_aboard")`` (through ``ctx.require`` when it needs it);
``Regime.evaluate`` types every ``extra`` against this schema and refuses an undeclared key or a badly typed
value with an InvalidFactError naming the field's label.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawcode.appfields import ApplicationFields, parse_application_fields
from lawcode.citations import Citer
from lawcode.errors import RegimeDefinitionError
from lawcode.fields import FieldSpec, coerce_fields, parse_fields
from lawcode.yamlsource import YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

ENTITIES = (
    "operator",
    "company",
    "driver",
    "attendant",
    "vehicle",
    "application",
    "infraction",
    "inspection",
)

# The entities whose extra fields a screen of the apps collects, and which screen (held by
# lawcode/tests/test_doctor.py against apps/: every entity a screen asks is listed, and only those). A regime
# declaring fields for another entity has facts no one fills in: ``python -m lawcode doctor`` says so.
COLLECTED_BY_APPS: dict[str, str] = {
    "company": "cadastro da empresa",
    "operator": "cadastro do autorizatário",
    "driver": "cadastro do condutor",
    "attendant": "cadastro do auxiliar/monitor",
    "vehicle": "cadastro do veículo",
    "inspection": "registro da vistoria",
}
ENTITY_LABELS = {
    "operator": "Autorizatário",
    "company": "Empresa",
    "driver": "Condutor",
    "attendant": "Monitor",
    "vehicle": "Veículo",
    "application": "Requerimento",
    "infraction": "Infração",
    "inspection": "Vistoria",
}


@dataclass(frozen=True)
class FactSchema:
    """Declared extra fields, by entity then key."""

    fields: Mapping[str, Mapping[str, FieldSpec]] = field(default_factory=dict)
    source: str = ""
    application_fields: ApplicationFields = field(default_factory=lambda: ApplicationFields({}))
    """The optional application-form answers the law asks, per kind (lawcode/appfields.py)."""

    def for_entity(self, entity: str) -> Mapping[str, FieldSpec]:
        return self.fields.get(entity, {})

    def typed(self, entity: str, values: Mapping[str, Any], path: str, where: str | None) -> dict[str, Any]:
        """``values`` typed by the entity's declared fields; an undeclared key is an InvalidFactError."""
        return coerce_fields(self.for_entity(entity), values, path, where, ENTITY_LABELS[entity])


def load_fact_schema(folder: Path, citer: Citer) -> FactSchema:
    """facts.yaml of ``folder``: required, for its ``application_fields`` section; ``fields`` is optional."""
    path = folder / "facts.yaml"
    if not path.exists():
        raise RegimeDefinitionError(
            "facts.yaml is missing: declare at least application_fields (the optional application answers "
            "the law asks, per kind; {} when none)",
            message_pt="falta facts.yaml: declare ao menos application_fields (os campos do requerimento que a "
            "lei pede, por tipo)",
            file=str(path),
        )
    root = require_map(load_yaml(path) or YamlMap(), str(path), "facts.yaml")
    reject_unknown_keys(root, ("fields", "application_fields"), "facts.yaml")
    require_keys(root, ("application_fields",), "facts.yaml")
    application_fields = parse_application_fields(
        root["application_fields"], str(path), root.line_of("application_fields"), citer
    )
    if "fields" not in root:
        return FactSchema({}, str(path), application_fields)
    entities = require_map(root["fields"], str(path), "fields", root.line_of("fields"))
    reject_unknown_keys(entities, ENTITIES, "facts.yaml fields (entities)")
    return FactSchema(
        {
            str(entity): parse_fields(
                node, str(path), f"fields.{entity}", entities.line_of(str(entity)), citer
            )
            for entity, node in entities.items()
        },
        str(path),
        application_fields,
    )
