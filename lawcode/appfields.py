"""Which optional application fields a regime's law asks, per application kind (``facts.yaml``,
section ``application_fields``).

The application form has a few optional answers that only some laws ask: the number of enrolled students
(a student-per-vehicle ratio), whether children under 4 or people with disabilities are carried (an
attendant), the date the platform reported a substitute vehicle, the extensions asked for a temporary
vehicle, the end date asked for an emergency driver. Each regime declares, per kind, the ones its law
asks and the dispositivo that asks each::

    application_fields:
      vehicle_permit:
        - {field: enrolled_students, cite: art4A_par2}
      temporary_vehicle:
        - {field: extensions, cite: art8}

The section is required (``{}`` when the law asks none of them): a form must never show a question the
law does not ask, nor hide one it does, by default. The field names and the kinds are the closed
vocabularies below; the application side maps them onto its form fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lawcode.citations import Citer
from lawcode.errors import RegimeDefinitionError
from lawcode.fields import cite_text
from lawcode.yamlsource import YamlList, YamlMap, reject_unknown_keys, require_keys, require_map

APPLICATION_FIELDS = (
    "enrolled_students",
    "carries_children_under_4_or_pcd",
    "platform_notified_on",
    "extensions",
    "requested_until",
)
"""The optional answers of an application (PermitApplication / DeadlineFacts fields, and the emergency
driver's end date) a regime may ask."""

APPLICATION_KINDS = (
    "operator_registration",
    "driver_link",
    "attendant_link",
    "vehicle_permit",
    "renewal",
    "substitution",
    "temporary_vehicle",
    "emergency_driver",
    "cancellation",
)
"""The kinds of application (requerimento) the product files."""


@dataclass(frozen=True)
class ApplicationField:
    """One optional application field a regime's law asks for one kind, with the dispositivo asking it."""

    field: str
    cite: str
    cite_text: str


@dataclass(frozen=True)
class ApplicationFields:
    """The declared fields, by kind."""

    by_kind: Mapping[str, tuple[ApplicationField, ...]]

    def for_kind(self, kind: str) -> tuple[ApplicationField, ...]:
        return self.by_kind.get(kind, ())

    def names_for(self, kind: str) -> frozenset[str]:
        return frozenset(item.field for item in self.for_kind(kind))

    def all_names(self) -> frozenset[str]:
        return frozenset(item.field for items in self.by_kind.values() for item in items)


def parse_application_fields(node: object, source: str, line: int, citer: Citer) -> ApplicationFields:
    """The ``application_fields`` section; an unknown kind or field, or a missing cite, is loud."""
    kinds = require_map(node, source, "application_fields", line)
    reject_unknown_keys(kinds, APPLICATION_KINDS, "facts.yaml application_fields (kinds)")
    return ApplicationFields(
        {
            str(kind): _parse_kind(items, source, str(kind), kinds.line_of(kind), citer)
            for kind, items in kinds.items()
        }
    )


def _parse_kind(
    items: object, source: str, kind: str, line: int, citer: Citer
) -> tuple[ApplicationField, ...]:
    if not isinstance(items, YamlList):
        raise RegimeDefinitionError(
            f"application_fields.{kind} must be a list of {{field, cite}}",
            message_pt=f"application_fields.{kind} deve ser uma lista de {{field, cite}}",
            file=source,
            line=line,
        )
    parsed: list[ApplicationField] = []
    for index, item in enumerate(items):
        entry = _entry(item, source, kind, items.line_at(index))
        name = str(entry["field"])
        if name in {field.field for field in parsed}:
            raise RegimeDefinitionError(
                f"application_fields.{kind}: field {name!r} is declared twice",
                message_pt=f"application_fields.{kind}: o campo {name!r} está declarado duas vezes",
                file=source,
                line=entry.line,
            )
        ref = citer.validate(entry["cite"], file=source, line=entry.line_of("cite"))
        parsed.append(ApplicationField(name, ref, cite_text(citer, ref)))
    return tuple(parsed)


def _entry(item: object, source: str, kind: str, line: int) -> YamlMap:
    entry = require_map(item, source, f"application_fields.{kind} item", line)
    reject_unknown_keys(entry, ("field", "cite"), f"application_fields.{kind} item")
    require_keys(entry, ("field", "cite"), f"application_fields.{kind} item")
    if entry["field"] not in APPLICATION_FIELDS:
        raise RegimeDefinitionError(
            f"application_fields.{kind}: unknown field {entry['field']!r}; known: {', '.join(APPLICATION_FIELDS)}",
            message_pt=f"application_fields.{kind}: campo desconhecido {entry['field']!r}",
            file=source,
            line=entry.line_of("field"),
        )
    return entry
