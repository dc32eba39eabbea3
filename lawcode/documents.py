"""Document kinds a regime declares (``documents.yaml``): what each is called, who presents it, the typed
details it carries and how its validity is decided.

::

    documents:
      criminal_distribution_certificate:
        label: Certidão negativa de distribuição criminal
        presented_by: [operator, driver]      # operator | driver | attendant | company | vehicle
        cite: art4_incI_d                     # the dispositivo that asks for it
        negative_certificate: true            # optional: the clerk reads whether it is negative (→ valid)
        details:                              # optional: typed fields (lawcode.fields), by key
          court:
            type: choice
            label: Órgão emissor da certidão
            choices: {federal: Justiça Federal, state: Justiça Estadual}
            cite: art4_incI_d
        validity:
          rule: document_validity             # the regime's document_validity rule judges it
          # rule: printed_expiry              # or: the printed expiry governs (none printed: no expiry)
          cite: art4_incI_d                   # the dispositivo the validity rests on

A document in the facts whose kind the regime does not declare, or whose details are not declared for its
kind, is an InvalidFactError (``Regime.evaluate`` checks every document). A regime with no documents.yaml
declares no kinds: any document given to it is refused, loudly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lawcode.citations import Citer
from lawcode.errors import InvalidFactError, RegimeDefinitionError
from lawcode.fields import FieldSpec, cite_text, coerce_fields, parse_fields
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

PRESENTERS = ("operator", "driver", "attendant", "company", "vehicle")
VALIDITY_RULES = ("document_validity", "printed_expiry")
PRESENTER_LABELS = {
    "operator": "autorizatário",
    "driver": "condutor",
    "attendant": "monitor",
    "company": "empresa",
    "vehicle": "veículo",
}
_KIND_KEYS = ("label", "presented_by", "cite", "negative_certificate", "details", "validity", "note")
_VALIDITY_KEYS = ("rule", "cite", "note")


@dataclass(frozen=True)
class ValidityRule:
    """How a kind's validity is decided: by the regime's ``document_validity`` rule, or its printed expiry."""

    rule: str
    cite: str
    cite_text: str
    note: str = ""


@dataclass(frozen=True)
class DocumentKind:
    key: str
    label: str
    presented_by: tuple[str, ...]
    cite: str
    cite_text: str
    validity: ValidityRule
    details: Mapping[str, FieldSpec] = field(default_factory=dict)
    negative_certificate: bool = False
    source: str = ""


@dataclass(frozen=True)
class DocumentCatalog:
    """The regime's document kinds, by key, in declaration order."""

    kinds: Mapping[str, DocumentKind] = field(default_factory=dict)
    source: str = ""

    def __contains__(self, key: object) -> bool:
        return key in self.kinds

    def get(self, key: str) -> DocumentKind:
        """The declared kind ``key``; InvalidFactError (Portuguese, listing the declared kinds) otherwise."""
        kind = self.kinds.get(key)
        if kind is None:
            raise self.unknown(key, "kind")
        return kind

    def label(self, key: str) -> str:
        return self.get(key).label

    def unknown(self, key: str, path: str, where: str | None = None) -> InvalidFactError:
        declared = ", ".join(self.kinds) or "none (no documents.yaml)"
        labels = "; ".join(kind.label for kind in self.kinds.values()) or "nenhum"
        return InvalidFactError(
            path,
            f"unknown document kind {key!r}; the regime declares: {declared}",
            where,
            problem_pt=f"Tipo de documento: {key!r} não é previsto pela lei do regime (previstos: {labels}).",
        )

    def typed_details(
        self, key: str, details: Mapping[str, Any], path: str, where: str | None
    ) -> dict[str, Any]:
        """``details`` typed by the kind's declared detail fields (undeclared ones refused)."""
        kind = self.kinds.get(key)
        if kind is None:
            raise self.unknown(key, f"{path}.kind", where)
        return coerce_fields(kind.details, details, f"{path}.details", where, kind.label)


def load_documents(folder: Path, citer: Citer) -> DocumentCatalog:
    """documents.yaml of ``folder`` (absent: no kinds declared)."""
    path = folder / "documents.yaml"
    if not path.exists():
        return DocumentCatalog()
    root = require_map(load_yaml(path) or YamlMap(), str(path), "documents.yaml")
    reject_unknown_keys(root, ("documents",), "documents.yaml")
    require_keys(root, ("documents",), "documents.yaml")
    kinds = require_map(root["documents"], str(path), "documents", root.line_of("documents"))
    return DocumentCatalog(
        {
            str(key): _kind(
                str(key), require_map(node, str(path), f"document '{key}'", kinds.line_of(str(key))), citer
            )
            for key, node in kinds.items()
        },
        str(path),
    )


def _kind(key: str, node: YamlMap, citer: Citer) -> DocumentKind:
    where = f"document '{key}'"
    reject_unknown_keys(node, _KIND_KEYS, where)
    require_keys(node, ("label", "presented_by", "cite", "validity"), where)
    cite = citer.validate(node["cite"], file=node.source, line=node.line_of("cite"))
    negative = node.get("negative_certificate", False)
    if not isinstance(negative, bool):
        raise RegimeDefinitionError(
            f"{where}: 'negative_certificate' must be true or false",
            file=node.source,
            line=node.line_of("negative_certificate"),
        )
    return DocumentKind(
        key,
        str(node["label"]),
        _presenters(node, where),
        cite,
        cite_text(citer, cite),
        _validity(
            require_map(node["validity"], node.source, f"{where}.validity", node.line_of("validity")), citer
        ),
        parse_fields(node.get("details"), node.source, f"{where}.details", node.line_of("details"), citer),
        negative,
        f"{node.source}:{node.line}",
    )


def _presenters(node: YamlMap, where: str) -> tuple[str, ...]:
    raw = node["presented_by"]
    items = list(raw) if isinstance(raw, YamlList) else [raw]
    unknown = [str(item) for item in items if item not in PRESENTERS]
    if unknown or not items:
        raise RegimeDefinitionError(
            f"{where}: presented_by must list some of {', '.join(PRESENTERS)}; got {', '.join(unknown) or 'nothing'}",
            message_pt=f"{where}: 'presented_by' deve listar quem apresenta ({', '.join(PRESENTERS)})",
            file=node.source,
            line=node.line_of("presented_by"),
        )
    return tuple(str(item) for item in items)


def _validity(node: YamlMap, citer: Citer) -> ValidityRule:
    reject_unknown_keys(node, _VALIDITY_KEYS, "validity")
    require_keys(node, ("rule", "cite"), "validity")
    rule = str(node["rule"])
    if rule not in VALIDITY_RULES:
        raise RegimeDefinitionError(
            f"validity rule {rule!r} is not one of {', '.join(VALIDITY_RULES)}",
            message_pt=f"regra de validade {rule!r} desconhecida; use {' ou '.join(VALIDITY_RULES)}",
            file=node.source,
            line=node.line_of("rule"),
        )
    cite = citer.validate(node["cite"], file=node.source, line=node.line_of("cite"))
    return ValidityRule(rule, cite, cite_text(citer, cite), str(node.get("note") or ""))
