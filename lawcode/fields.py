"""Typed, labelled fields a regime declares: the detail fields of a document kind (documents.yaml) and the
fact fields beyond the common schema (facts.yaml).

One field, in YAML::

    children_under_12_aboard:
      type: bool                       # bool | int | decimal | date | choice | text
      label: Transporta crianças menores de 12 anos?
      help: Marque «sim» se o veículo leva crianças com menos de 12 anos.   # optional
      cite: art12_incIV                # the dispositivo that asks the question (validated)
      choices: {federal: Justiça Federal, state: Justiça Estadual}          # only (and required) for choice
      min: 0                           # optional, int/decimal only

``FieldSpec.coerce(value, path)`` turns what an app or a scenario gives (a bool, "5,56", "2026-03-01", …) into
the typed value, or raises InvalidFactError whose Portuguese message names the field's label, so the apps can
show it as it is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from lawcode.citations import Citer, split_ref
from lawcode.errors import InvalidFactError, RegimeDefinitionError
from lawcode.yamlsource import YamlMap, reject_unknown_keys, require_keys, require_map

FIELD_TYPES = ("bool", "int", "decimal", "date", "choice", "text")
_FIELD_KEYS = ("type", "label", "help", "cite", "choices", "min", "max")
TYPE_WORDS_PT = {
    "bool": "sim ou não",
    "int": "um número inteiro",
    "decimal": "um número (use vírgula para decimais)",
    "date": "uma data dd/mm/aaaa",
    "choice": "uma das opções",
    "text": "um texto",
}


def cite_text(citer: Citer, ref: str) -> str:
    """A validated reference as people read it, without a wording date: "Lei 8.698/2012 (…), art. 12, IV"."""
    act_key, dispositivo = split_ref(citer.validate(ref), citer.registry.main)
    act = citer.registry.acts[act_key]
    return act.cite_as if dispositivo is None else f"{act.cite_as}, {act.label(dispositivo)}"


@dataclass(frozen=True)
class FieldSpec:
    """A declared field: key, type, Portuguese label and help, the citation that asks it, choices."""

    key: str
    type: str
    label: str
    cite: str
    cite_text: str
    help: str = ""
    choices: Mapping[str, str] = field(default_factory=dict)
    minimum: Decimal | None = None
    maximum: Decimal | None = None
    source: str = ""

    def coerce(self, value: Any, path: str, where: str | None = None) -> Any:
        """The typed value of ``value`` (None stays None); InvalidFactError naming the label otherwise."""
        if value is None or value == "":
            return None
        try:
            typed = _CONVERTERS[self.type](self, value)
        except (TypeError, ValueError, InvalidOperation):
            raise self.invalid(
                path, f"expected {self.type}, got {value!r}", TYPE_WORDS_PT[self.type], where
            ) from None
        self._check_bounds(typed, path, where)
        return typed

    def invalid(
        self, path: str, problem: str, expected_pt: str, where: str | None = None
    ) -> InvalidFactError:
        return InvalidFactError(
            path, problem, where, problem_pt=f"{self.label}: informe {expected_pt} ({self.cite_hint})."
        )

    @property
    def cite_hint(self) -> str:
        return self.cite_text

    def _check_bounds(self, typed: Any, path: str, where: str | None) -> None:
        if self.type not in ("int", "decimal"):
            return
        if self.minimum is not None and typed < self.minimum:
            raise self.invalid(
                path, f"below the minimum {self.minimum}", f"um valor a partir de {self.minimum}", where
            )
        if self.maximum is not None and typed > self.maximum:
            raise self.invalid(
                path, f"above the maximum {self.maximum}", f"um valor até {self.maximum}", where
            )

    def choice_label(self, value: Any) -> str:
        return self.choices.get(str(value), str(value))


def _bool(spec: FieldSpec, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "sim", "false", "não", "nao"):
        return value.strip().lower() in ("true", "sim")
    raise TypeError(value)


def _int(spec: FieldSpec, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str, Decimal)):
        raise TypeError(value)
    number = Decimal(str(value).strip())
    if number != number.to_integral_value():
        raise ValueError(value)
    return int(number)


def _decimal(spec: FieldSpec, value: Any) -> Decimal:
    """Decimal from a number or a Brazilian text ("5,56", "1.234,5") or a plain one ("5.56")."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise TypeError(value)
    if isinstance(value, str):
        return parse_decimal_pt(value)
    return Decimal(str(value))


def parse_decimal_pt(text: str) -> Decimal:
    """ "5,56" → 5.56; "1.234,56" → 1234.56; "5.56" → 5.56 (a lone dot is a decimal point). ValueError if bad."""
    cleaned = text.strip().replace(" ", "").removesuffix("%")
    if "," in cleaned:
        cleaned = cleaned.replace(".", "").replace(",", ".")
    try:
        number = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(text) from None
    if not number.is_finite():
        raise ValueError(text)
    return number


def _date(spec: FieldSpec, value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        raise TypeError(value)
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        text = value.strip()
        if len(text) == 10 and text[2] == "/" and text[5] == "/":
            return dt.datetime.strptime(text, "%d/%m/%Y").date()
        return dt.date.fromisoformat(text)
    raise TypeError(value)


def _choice(spec: FieldSpec, value: Any) -> str:
    if str(value) not in spec.choices:
        raise ValueError(value)
    return str(value)


def _text(spec: FieldSpec, value: Any) -> str:
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise TypeError(value)
    return str(value).strip()


_CONVERTERS: dict[str, Callable[[FieldSpec, Any], Any]] = {
    "bool": _bool,
    "int": _int,
    "decimal": _decimal,
    "date": _date,
    "choice": _choice,
    "text": _text,
}


def parse_fields(node: Any, source: str, what: str, line: int, citer: Citer) -> dict[str, FieldSpec]:
    """A mapping ``key: {type, label, cite, …}`` of declared fields, validated with file:line."""
    if node is None:
        return {}
    fields = require_map(node, source, what, line)
    return {
        str(key): parse_field(
            str(key), require_map(spec, source, f"{what}.{key}", fields.line_of(str(key))), citer
        )
        for key, spec in fields.items()
    }


def parse_field(key: str, node: YamlMap, citer: Citer) -> FieldSpec:
    where = f"field '{key}'"
    reject_unknown_keys(node, _FIELD_KEYS, where)
    require_keys(node, ("type", "label", "cite"), where)
    kind = str(node["type"])
    if kind not in FIELD_TYPES:
        raise RegimeDefinitionError(
            f"{where}: type {kind!r} is not one of {', '.join(FIELD_TYPES)}",
            message_pt=f"{where}: tipo {kind!r} inválido; use um de {', '.join(FIELD_TYPES)}",
            file=node.source,
            line=node.line_of("type"),
        )
    choices = _choices(node, kind, where)
    cite = citer.validate(node["cite"], file=node.source, line=node.line_of("cite"))
    return FieldSpec(
        key,
        kind,
        str(node["label"]),
        cite,
        cite_text(citer, cite),
        str(node.get("help") or ""),
        choices,
        _bound(node, "min", kind, where),
        _bound(node, "max", kind, where),
        f"{node.source}:{node.line}",
    )


def _choices(node: YamlMap, kind: str, where: str) -> dict[str, str]:
    raw = node.get("choices")
    if kind != "choice":
        if raw is not None:
            raise RegimeDefinitionError(
                f"{where}: 'choices' only applies to type choice",
                file=node.source,
                line=node.line_of("choices"),
            )
        return {}
    if not isinstance(raw, Mapping) or not raw:
        raise RegimeDefinitionError(
            f"{where}: a choice needs 'choices' (key: Portuguese label)",
            message_pt=f"{where}: informe as opções em 'choices'",
            file=node.source,
            line=node.line_of("choices"),
        )
    return {str(key): str(label) for key, label in raw.items()}


def _bound(node: YamlMap, key: str, kind: str, where: str) -> Decimal | None:
    if node.get(key) is None:
        return None
    if kind not in ("int", "decimal") or isinstance(node[key], bool):
        raise RegimeDefinitionError(
            f"{where}: '{key}' is a number and only applies to int or decimal fields",
            file=node.source,
            line=node.line_of(key),
        )
    return Decimal(str(node[key]))


def coerce_fields(
    specs: Mapping[str, FieldSpec], values: Mapping[str, Any], path: str, where: str | None, what_pt: str
) -> dict[str, Any]:
    """``values`` typed by ``specs``; an undeclared key is an InvalidFactError listing the declared ones."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        spec = specs.get(str(key))
        child = f"{path}.{key}"
        if spec is None:
            allowed = ", ".join(specs) or "none"
            raise InvalidFactError(
                child,
                f"undeclared field; declared: {allowed}",
                where,
                problem_pt=f"{what_pt}: a informação '{key}' não está prevista pela lei do regime",
            )
        typed = spec.coerce(value, child, where)
        if typed is not None:
            out[str(key)] = typed
    return out
