"""Inspection checklists (vistorias): what the inspector verifies on a vehicle, item by item, each item
citing the dispositivo that requires it.

Each regime folder may hold ``inspection_checklist.yaml``::

    items:
      - code: tachograph                       # unique in the file; [a-z0-9_]
        label: Tacógrafo em perfeito funcionamento
        cite: [art13_incIV, "ctb:art136_incIV"] # one reference or a list; validated like every citation
        applies_to: [initial, periodic]        # optional; default: every base kind
        hint: Verificar o disco/registro do dia # optional help for the inspector
    failure_cure:                              # optional: the regime gives a legal cure window after a failure
      instance: inspection                     # DeadlineFacts.instance for the regime's cure_deadline question
      cite: art9_par3

Base kinds are ``initial`` (before a permit), ``periodic`` (renewal/annual), ``semestral`` (the calendar by
plate digit) and ``temporary`` (a temporary substitute vehicle). A re-inspection repeats the items of the
inspection it follows, so it is not a kind items apply to.

Loading validates every citation against the regime's acts: a wrong cite raises ``UnknownDispositivoError``
with file and line, exactly like parameters and the catalog. Pure Python, no Django.

    checklist = checklist_for("exemplo_sp_escolar")
    for item in checklist.items_for("initial"):
        item.code, item.label, [c.render() for c in checklist.citations(item, on=date(2026, 3, 1))]
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path

from lawcode.citations import Citation, Citer
from lawcode.errors import RegimeDefinitionError
from lawcode.registry import get_regime
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

CHECKLIST_FILE = "inspection_checklist.yaml"
BASE_KINDS: tuple[str, ...] = ("initial", "periodic", "semestral", "temporary")
_ROOT_KEYS = ("items", "failure_cure", "note")
_ITEM_KEYS = ("code", "label", "cite", "applies_to", "hint")
_CURE_KEYS = ("instance", "cite")
_CODE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class ChecklistItem:
    """One thing to verify: stable code, Portuguese label, the dispositivos requiring it, where it applies."""

    code: str
    label: str
    cites: tuple[str, ...]
    applies_to: tuple[str, ...]
    hint: str
    source: str

    def applies(self, kind: str) -> bool:
        return kind in self.applies_to


@dataclass(frozen=True)
class FailureCure:
    """The regime's legal window to fix a failed inspection, asked through its ``cure_deadline`` question."""

    instance: str
    cite: str


@dataclass(frozen=True)
class Checklist:
    """A regime's inspection checklist, validated; ``citer`` resolves its citations on a date."""

    regime_id: str
    items: tuple[ChecklistItem, ...]
    failure_cure: FailureCure | None
    citer: Citer
    source: str

    def items_for(self, kind: str) -> tuple[ChecklistItem, ...]:
        """The items of an inspection of base ``kind`` (see BASE_KINDS); an unknown kind is an error."""
        if kind not in BASE_KINDS:
            raise RegimeDefinitionError(
                f"unknown inspection kind {kind!r}; use one of {', '.join(BASE_KINDS)}",
                message_pt=f"tipo de vistoria desconhecido: {kind!r}",
                field="kind",
            )
        return tuple(item for item in self.items if item.applies(kind))

    def item(self, code: str) -> ChecklistItem:
        for item in self.items:
            if item.code == code:
                return item
        raise RegimeDefinitionError(
            f"checklist of {self.regime_id} has no item {code!r}",
            message_pt=f"o roteiro de vistoria não tem o item {code!r}",
            field="items",
        )

    def citations(self, item: ChecklistItem, *, on: dt.date) -> tuple[Citation, ...]:
        """The item's citations with the wording in force on ``on``."""
        return tuple(self.citer.resolve(ref, on=on) for ref in item.cites)


_CACHE: dict[str, Checklist] = {}


def checklist_for(regime_id: str) -> Checklist:
    """The checklist of a regime (cached); RegimeDefinitionError if the regime has none."""
    if regime_id not in _CACHE:
        regime = get_regime(regime_id)
        _CACHE[regime_id] = load_checklist(regime.folder / CHECKLIST_FILE, regime.citer, regime_id)
    return _CACHE[regime_id]


def has_checklist(regime_id: str) -> bool:
    return (get_regime(regime_id).folder / CHECKLIST_FILE).is_file()


def load_checklist(path: Path, citer: Citer, regime_id: str) -> Checklist:
    """Read and validate ``path`` against the acts ``citer`` knows (wrong cites fail with file:line)."""
    if not path.is_file():
        raise RegimeDefinitionError(
            f"regime {regime_id} has no {CHECKLIST_FILE}",
            file=str(path),
            message_pt=f"o regime {regime_id} não tem roteiro de vistoria",
        )
    root = require_map(load_yaml(path), str(path), CHECKLIST_FILE)
    reject_unknown_keys(root, _ROOT_KEYS, CHECKLIST_FILE)
    require_keys(root, ("items",), CHECKLIST_FILE)
    items = _items(root, citer)
    cure = _failure_cure(root.get("failure_cure"), citer, str(path))
    return Checklist(regime_id, items, cure, citer, str(path))


def _items(root: YamlMap, citer: Citer) -> tuple[ChecklistItem, ...]:
    nodes = root["items"]
    if not isinstance(nodes, YamlList) or not nodes:
        raise RegimeDefinitionError(
            "'items' must be a non-empty list",
            file=root.source,
            line=root.line_of("items"),
            message_pt="'items' deve ser uma lista não vazia",
        )
    items: list[ChecklistItem] = []
    for index, node in enumerate(nodes):
        item = _item(require_map(node, root.source, "item", nodes.line_at(index)), citer)
        if any(other.code == item.code for other in items):
            raise RegimeDefinitionError(
                f"duplicate item code {item.code!r}",
                file=root.source,
                line=nodes.line_at(index),
                message_pt=f"código de item repetido {item.code!r}",
            )
        items.append(item)
    return tuple(items)


def _item(node: YamlMap, citer: Citer) -> ChecklistItem:
    reject_unknown_keys(node, _ITEM_KEYS, "item")
    require_keys(node, ("code", "label", "cite"), "item")
    code = str(node["code"])
    if not _CODE.match(code):
        raise RegimeDefinitionError(
            f"item code {code!r} must be lower case letters, digits and _",
            file=node.source,
            line=node.line_of("code"),
            message_pt=f"código de item inválido {code!r}",
        )
    label = str(node["label"]).strip()
    if not label:
        raise RegimeDefinitionError(
            "item label is empty",
            file=node.source,
            line=node.line_of("label"),
            message_pt="o item precisa de um rótulo",
        )
    cites = _cites(node, citer)
    applies_to = _applies_to(node)
    return ChecklistItem(
        code, label, cites, applies_to, str(node.get("hint") or ""), f"{node.source}:{node.line}"
    )


def _cites(node: YamlMap, citer: Citer) -> tuple[str, ...]:
    raw = node["cite"]
    refs = list(raw) if isinstance(raw, list) else [raw]
    if not refs:
        raise RegimeDefinitionError(
            "item cites nothing",
            file=node.source,
            line=node.line_of("cite"),
            message_pt="todo item cita ao menos um dispositivo",
        )
    return tuple(citer.validate(ref, file=node.source, line=node.line_of("cite")) for ref in refs)


def _applies_to(node: YamlMap) -> tuple[str, ...]:
    raw = node.get("applies_to")
    if raw is None:
        return BASE_KINDS
    kinds = tuple(str(kind) for kind in (raw if isinstance(raw, list) else [raw]))
    unknown = [kind for kind in kinds if kind not in BASE_KINDS]
    if unknown or not kinds:
        raise RegimeDefinitionError(
            f"applies_to: unknown kinds {unknown}; use {', '.join(BASE_KINDS)}",
            file=node.source,
            line=node.line_of("applies_to"),
            message_pt="applies_to com tipo de vistoria desconhecido",
        )
    return kinds


def _failure_cure(raw: object, citer: Citer, source: str) -> FailureCure | None:
    if raw is None:
        return None
    node = require_map(raw, source, "failure_cure")
    reject_unknown_keys(node, _CURE_KEYS, "failure_cure")
    require_keys(node, _CURE_KEYS, "failure_cure")
    cite = citer.validate(node["cite"], file=node.source, line=node.line_of("cite"))
    return FailureCure(str(node["instance"]), cite)
