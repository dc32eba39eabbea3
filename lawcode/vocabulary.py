"""A regime's open vocabularies: its document kinds (documents.yaml), its extra fact fields (facts.yaml), its
fine units (units.yaml) and the names its law gives things (labels.yaml, lawcode/labels.py), loaded with checked
citations; and the check that types the facts against them.

``Regime.evaluate`` passes every facts object through ``Vocabulary.typed_facts``: each Document's kind must be
declared and its details typed by the kind's detail fields; each ``extra`` mapping is typed by the entity's
declared fields; a FineFacts unit must be ``brl`` or a declared unit. Any violation is an InvalidFactError whose
Portuguese message names the field's label (and, for declared fields, the article asking it).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from lawcode import facts as f
from lawcode.citations import Citer
from lawcode.documents import DocumentCatalog, load_documents
from lawcode.errors import InvalidFactError, RegimeDefinitionError
from lawcode.factfields import FactSchema, load_fact_schema
from lawcode.fiscal import load_units
from lawcode.labels import Labels, load_labels
from lawcode.memo import Memo
from lawcode.units import FineUnit, Unit

# Facts classes carrying an ``extra`` mapping → the facts.yaml entity that types it.
ENTITY_OF: dict[type, str] = {
    f.Operator: "operator",
    f.Company: "company",
    f.Driver: "driver",
    f.Attendant: "attendant",
    f.Vehicle: "vehicle",
    f.PermitApplication: "application",
    f.InfractionCase: "infraction",
    f.InspectionFacts: "inspection",
}


@dataclass(frozen=True)
class Vocabulary:
    documents: DocumentCatalog = field(default_factory=DocumentCatalog)
    facts: FactSchema = field(default_factory=FactSchema)
    units: Mapping[str, FineUnit] = field(default_factory=dict)
    labels: Labels = field(default_factory=Labels)
    """What the law calls its instrument, bodies, verdicts and application kinds (labels.yaml)."""

    def fine_unit(self, key: str) -> FineUnit | None:
        """The declared unit ``key``; None for plain reais (``brl``); RegimeDefinitionError when undeclared."""
        if key == Unit.BRL.value:
            return None
        unit = self.units.get(key)
        if unit is None:
            raise RegimeDefinitionError(
                f"unit {key!r} is not declared in units.yaml (declared: {', '.join(self.units) or 'none'}; "
                "plain reais are 'brl')",
                message_pt=f"unidade {key!r} não declarada pelo regime (units.yaml)",
                field="unit",
            )
        return unit

    def unit_label(self, key: str) -> str:
        """How people read a unit: "R$" for reais, the declared label otherwise (UFESP, UFM…)."""
        unit = self.fine_unit(key)
        return "R$" if unit is None else unit.label

    def typed_facts(
        self,
        facts: Any,
        where: str | None = None,
        path: str = "",
        memo: Memo | None = None,
        *,
        subject: bool = False,
    ) -> Any:
        """``facts`` with documents and extras checked and typed against the declarations.

        A part that typing leaves as it was is returned as the same object (no copy of a tuple or a
        dataclass whose items all came back unchanged). With a bulk run's ``memo``, a facts object already
        typed in this run (the operator every vehicle of the fleet shares, the subject asked once under the law
        and once under the reform, a tuple of documents many vehicles carry) is not walked again. ``subject``:
        ``facts`` is the subject of an evaluation, kept only briefly (asked again under the reform, not later).
        """
        if isinstance(facts, tuple):
            if not facts:
                return facts
        elif _nothing_to_type(type(facts)):
            return facts
        if memo is None:
            return self._typed_one(facts, where, path, None)
        key = ("typed_facts", id(self), id(facts))
        typed = memo.get(key)
        if typed is None:
            typed = self._typed_one(facts, where, path, memo)
            memo.put(key, (self, facts), typed, brief=subject)
        return typed

    def _typed_tuple(self, items: tuple[Any, ...], where: str | None, path: str, memo: Memo | None) -> Any:
        typed = tuple(self.typed_facts(item, where, f"{path}[{i}]", memo) for i, item in enumerate(items))
        same = all(new is old for new, old in zip(typed, items, strict=True))
        return items if same else typed

    def _typed_one(self, facts: Any, where: str | None, path: str, memo: Memo | None) -> Any:
        if isinstance(facts, tuple):
            return self._typed_tuple(facts, where, path, memo)
        if isinstance(facts, f.Document):
            return self._document(facts, path, where)
        if isinstance(facts, f.FineFacts):
            self._check_unit(facts.unit, _join(path, "unit"), where)
            return facts
        return self._typed_dataclass(facts, where, path, memo)

    def _typed_dataclass(self, facts: Any, where: str | None, path: str, memo: Memo | None) -> Any:
        changes: dict[str, Any] = {}
        entity = ENTITY_OF.get(type(facts))
        for name in _walked_fields(type(facts)):
            value = getattr(facts, name)
            if type(value) in _PLAIN:
                continue
            if name == "extra" and entity is not None:
                if type(value) is dict and not value:
                    continue  # nothing to type: an empty dict stays the same (equal) empty dict
                typed = self.facts.typed(entity, value, _join(path, "extra"), where)
            elif isinstance(value, tuple) and not value:
                continue  # an empty tuple: nothing to type
            elif isinstance(value, tuple) or not _nothing_to_type(type(value)):
                typed = self.typed_facts(value, where, _join(path, name), memo)
            else:
                continue  # a plain value, or a dataclass with nothing to type
            if typed is not value:
                changes[name] = typed
        return _replaced(facts, changes) if changes else facts

    def _document(self, document: f.Document, path: str, where: str | None) -> f.Document:
        if document.kind not in self.documents:
            raise self.documents.unknown(document.kind, _join(path, "kind"), where)
        details = self.documents.typed_details(document.kind, document.details, path or "document", where)
        return dataclasses.replace(document, details=details) if details != document.details else document

    def _check_unit(self, key: str, path: str, where: str | None) -> None:
        if key != Unit.BRL.value and key not in self.units:
            labels = ", ".join(["brl", *self.units])
            raise InvalidFactError(
                path,
                f"unit {key!r} is not declared by the regime; use one of: {labels}",
                where,
                problem_pt=f"Unidade da multa: {key!r} não é prevista pela lei do regime (previstas: {labels}).",
            )


_WALKED: dict[type, tuple[str, ...]] = {}
_LEAF: dict[type, bool] = {}
_PLAIN = frozenset({type(None), str, int, bool, float, Decimal, dt.date})  # values typing never changes


def _nothing_to_type(cls: type) -> bool:
    """Not a dataclass, or one with no field to walk (an Ownership): typing returns such facts as they are."""
    leaf = _LEAF.get(cls)
    if leaf is None:
        special = issubclass(cls, (f.Document, f.FineFacts))
        leaf = _LEAF[cls] = not dataclasses.is_dataclass(cls) or (not special and not _walked_fields(cls))
    return leaf


def _walked_fields(cls: type) -> tuple[str, ...]:
    """The fields of the dataclass ``cls`` that may hold something to type, worked out once per class.

    A field declared with plain values only (``str | None``, ``Literal[…]``, ``dt.date``…) is never walked:
    a PermitApplication has fourteen fields and a Vehicle nineteen, of which five need a look. A class whose
    annotations cannot be resolved has every field walked.
    """
    names = _WALKED.get(cls)
    if names is None:
        try:
            hints = typing.get_type_hints(cls)
        except (NameError, TypeError):
            hints = {}
        fields = dataclasses.fields(cls)
        names = tuple(s.name for s in fields if s.name not in hints or _may_need_typing(hints[s.name]))
        _WALKED[cls] = names
    return names


def _may_need_typing(hint: Any) -> bool:
    if hint in _PLAIN:
        return False
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return False
    if origin in (typing.Union, types.UnionType):
        return any(_may_need_typing(arg) for arg in typing.get_args(hint))
    return True


_PLAIN_INSTANCES: dict[
    type, bool
] = {}  # class → its instances are their __dict__ (no slots, no __post_init__)


def _replaced(facts: Any, changes: dict[str, Any]) -> Any:
    """``dataclasses.replace(facts, **changes)`` for the facts classes, without their frozen ``__init__``.

    They have no ``__post_init__`` and no field outside ``__init__``, so copying the instance's ``__dict__`` and
    putting the typed values in builds the same object for a fraction of the cost (once per bulk subject).
    """
    cls = type(facts)
    plain = _PLAIN_INSTANCES.get(cls)
    if plain is None:
        plain = _PLAIN_INSTANCES[cls] = not hasattr(cls, "__slots__") and not hasattr(cls, "__post_init__")
    if not plain:
        return dataclasses.replace(facts, **changes)
    copy = object.__new__(cls)
    copy.__dict__.update(facts.__dict__)
    copy.__dict__.update(changes)
    return copy


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def load_vocabulary(folder: Path, citer: Citer) -> Vocabulary:
    """documents.yaml, facts.yaml, units.yaml and labels.yaml of a regime folder (facts.yaml and labels.yaml
    required; the others absent = nothing declared)."""
    return Vocabulary(
        load_documents(folder, citer),
        load_fact_schema(folder, citer),
        load_units(folder, citer),
        load_labels(folder, citer),
    )


def check_vocabulary(
    vocabulary: Vocabulary, parameters: Mapping[str, Any], questions: set[str], regime_id: str
) -> None:
    """Cross-checks once the regime is loaded: unit parameters exist with the right unit, and a kind judged by
    ``document_validity`` belongs to a regime that answers that question."""
    from lawcode.fiscal import check_unit_parameters

    check_unit_parameters(dict(vocabulary.units), dict(parameters), regime_id)
    if "document_validity" in questions:
        return
    for kind in vocabulary.documents.kinds.values():
        if kind.validity.rule == "document_validity":
            file, _, line = kind.source.rpartition(":")
            raise RegimeDefinitionError(
                f"document '{kind.key}' is judged by the document_validity rule, which {regime_id} does not "
                "define; write the rule or declare validity rule: printed_expiry",
                message_pt=f"o documento '{kind.key}' depende da regra document_validity, que o regime não tem",
                file=file or None,
                line=int(line) if line.isdigit() else None,
            )
