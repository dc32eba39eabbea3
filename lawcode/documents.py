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
          age_limit: INT-PAT-CERTIFICATE-WINDOW  # required when the rule gives a ``fresh_until`` (below)

An **age-limited** kind (a certidão accepted only if issued at most N days before) is one whose
``document_validity`` rule returns a ``fresh_until``. Whether that window binds only its presentation or its
whole validity is a named interpretation the kind declares as ``validity.age_limit``, with the options
``presentation`` and ``ongoing`` (checked at load). The engine applies it to every document_validity decision
(``apply_age_limit``): under ``ongoing`` the document's ``valid_until`` ends with the window, so the stored
document expires and, where standing.yaml lists the kind, the permit lapses; under ``presentation`` the accepted
certidão keeps its validity. A rule that gives a ``fresh_until`` for a kind without the declaration fails loudly.

A document in the facts whose kind the regime does not declare, or whose details are not declared for its
kind, is an InvalidFactError (``Regime.evaluate`` checks every document). A regime with no documents.yaml
declares no kinds: any document given to it is refused, loudly.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lawcode.calendar import format_date_pt
from lawcode.citations import Citer
from lawcode.decision import RuleResult, Status
from lawcode.errors import InvalidFactError, RegimeDefinitionError
from lawcode.fields import FieldSpec, cite_text, coerce_fields, parse_fields
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

if TYPE_CHECKING:
    from lawcode.context import Context
    from lawcode.facts import Document
    from lawcode.interpretations import Interpretation

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
_VALIDITY_KEYS = ("rule", "cite", "note", "age_limit")
# The options an age_limit interpretation must offer, and what each means for an accepted certidão.
AGE_LIMIT_OPTIONS = ("presentation", "ongoing")


@dataclass(frozen=True)
class ValidityRule:
    """How a kind's validity is decided: by the regime's ``document_validity`` rule, or its printed expiry."""

    rule: str
    cite: str
    cite_text: str
    note: str = ""
    age_limit: str | None = None  # the interpretation choosing whether the age window binds after acceptance


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
        kind = self.kinds.get(key)  # not through get(): rules ask it for every document of every subject
        return self.get(key).label if kind is None else kind.label

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
    age_limit = node.get("age_limit")
    if age_limit is not None and (rule != "document_validity" or not isinstance(age_limit, str)):
        raise RegimeDefinitionError(
            "validity.age_limit names an interpretation and needs rule: document_validity (the rule gives "
            "the window)",
            file=node.source,
            line=node.line_of("age_limit"),
        )
    return ValidityRule(rule, cite, cite_text(citer, cite), str(node.get("note") or ""), age_limit)


# --- age-limited certificates ---------------------------------------------------------------------------


def check_age_limits(catalog: DocumentCatalog, interpretations: Mapping[str, Interpretation]) -> None:
    """Every ``age_limit`` names a declared interpretation whose options are exactly presentation/ongoing."""
    for kind in catalog.kinds.values():
        key = kind.validity.age_limit
        if key is None:
            continue
        chosen = interpretations.get(key)
        if chosen is None or tuple(sorted(chosen.options)) != tuple(sorted(AGE_LIMIT_OPTIONS)):
            raise RegimeDefinitionError(
                f"document '{kind.key}': validity.age_limit {key!r} must be a declared interpretation with "
                f"the options {', '.join(AGE_LIMIT_OPTIONS)}",
                message_pt=f"{kind.label}: a interpretação {key} da janela de emissão não está declarada com "
                "as opções presentation e ongoing",
                file=catalog.source,
            )


def apply_age_limit(
    ctx: Context, catalog: DocumentCatalog, document: Document, result: RuleResult
) -> RuleResult:
    """The kind's age_limit interpretation applied to its document_validity result (see the module doc)."""
    fresh = result.result.get("fresh_until")
    if not isinstance(fresh, dt.date):
        return result
    kind = catalog.get(document.kind)
    if kind.validity.age_limit is None:
        raise RegimeDefinitionError(
            f"document_validity gave {kind.key!r} an age window (fresh_until) but documents.yaml declares no "
            "validity.age_limit interpretation: say whether the window binds after acceptance",
            message_pt=f"{kind.label}: falta declarar em documents.yaml (validity.age_limit) se o limite de "
            "idade vale só na apresentação ou durante toda a validade",
            file=catalog.source,
        )
    option = ctx.interpretation(kind.validity.age_limit)
    until = result.result.get("valid_until")
    if option == "ongoing":
        until = fresh if not isinstance(until, dt.date) else min(until, fresh)
    message = _window_message(kind, option, fresh, until)
    finding = ctx.finding(
        "age_limit", Status.INFO, message, cites=(kind.validity.cite,), data={"reading": option}
    )
    values = {**result.result, "valid_until": until, "age_limit": option}
    return replace(result, findings=[*result.findings, finding], result=values)


def _window_message(kind: DocumentKind, option: str, fresh: dt.date, until: Any) -> str:
    reading = f"{kind.label}: o limite de idade vale"
    if option == "ongoing":
        return (
            f"{reading} durante toda a validade ({kind.validity.age_limit}): vale até "
            f"{format_date_pt(until)}, depois é preciso apresentar certidão nova"
        )
    shown = f"até {format_date_pt(until)}" if isinstance(until, dt.date) else "sem prazo próprio"
    return (
        f"{reading} só para a apresentação ({kind.validity.age_limit}): aceita até {format_date_pt(fresh)}, "
        f"continua válida {shown}"
    )
