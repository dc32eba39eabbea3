"""Dated legal parameters: every number a law fixes, keyed by effective date, every value cited.

``parameters.yaml`` of a regime::

    max_vehicle_age:
      description: Idade máxima do veículo, em anos de fabricação
      unit: years
      values:
        - from: 2025-09-24
          value: 15
          cite: art13_incII          # mandatory (CitationMissingError with file:line otherwise)
          confidence: V              # optional: V/S/M/NF as in docs/domain/facts.md
          note: "..."                # optional
      configurable: true             # optional: the municipality sets it (decree), e.g. fleet_cap, ufm

A repeal is ``value: null``; ``values: []`` declares a parameter whose value is unknown (Patrocínio's UFM).
``Parameter.value_on(day, regime_id)`` returns the ``ParameterValue`` in force or raises MissingParameterError.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from lawcode.errors import CitationMissingError, MissingParameterError, RegimeDefinitionError
from lawcode.units import AnyUnit, FineUnit, Unit
from lawcode.yamlsource import YamlList, YamlMap, load_yaml, reject_unknown_keys, require_keys, require_map

CONFIDENCE_GRADES = ("V", "S", "M", "NF")
_PARAMETER_KEYS = ("description", "unit", "values", "note", "configurable")
_VALUE_KEYS = ("from", "value", "cite", "confidence", "note")

CiteValidator = Callable[[object, str | None, int | None], str]


@dataclass(frozen=True)
class ParameterValue:
    """One dated value. ``value`` None means repealed from ``effective_from``. ``source`` is "file:line"."""

    effective_from: dt.date
    value: Any
    cite: str
    confidence: str = "V"
    note: str | None = None
    source: str = ""


@dataclass(frozen=True)
class Parameter:
    """A named parameter with its unit and dated values (sorted by ``effective_from``)."""

    name: str
    description: str
    unit: AnyUnit
    values: tuple[ParameterValue, ...]
    source: str = ""
    configurable: bool = False
    """Set by the municipality (a decree fixes it), not by the law: its values come from Config.parameters."""

    def value_on(self, day: dt.date, regime_id: str) -> ParameterValue:
        """The value in force on ``day`` (latest ``from`` ≤ day); MissingParameterError if none or repealed."""
        current = None
        for value in self.values:
            if value.effective_from <= day:
                current = value
        if current is None:
            reason = "no value was ever declared" if not self.values else "the first value starts later"
            raise MissingParameterError(regime_id, self.name, day, reason=reason)
        if current.value is None:
            raise MissingParameterError(
                regime_id, self.name, day, reason=f"repealed from {current.effective_from.isoformat()}"
            )
        return current

    def with_values(self, extra: Iterable[ParameterValue]) -> Parameter:
        """A copy with ``extra`` values merged in; on the same date the extra value wins (a reform/override)."""
        by_date = {value.effective_from: value for value in self.values}
        by_date.update({value.effective_from: value for value in extra})
        return Parameter(
            self.name,
            self.description,
            self.unit,
            tuple(sorted(by_date.values(), key=lambda v: v.effective_from)),
            self.source,
            self.configurable,
        )


def load_parameters(
    path: Path, validate_cite: CiteValidator, money: Mapping[str, FineUnit] | None = None
) -> dict[str, Parameter]:
    """Load a parameters.yaml; ``validate_cite(ref, file, line)`` checks each citation (Citer.validate);
    ``money`` are the regime's declared fine units a parameter may be counted in (units.yaml)."""
    if not path.exists():
        return {}
    data = load_yaml(path)
    if data is None:
        return {}
    root = require_map(data, str(path), "parameters.yaml")
    return {
        name: parse_parameter(
            name,
            require_map(node, root.source, f"parameter '{name}'", root.line_of(name)),
            validate_cite,
            money,
        )
        for name, node in root.items()
    }


def parse_parameter(
    name: str, node: YamlMap, validate_cite: CiteValidator, money: Mapping[str, FineUnit] | None = None
) -> Parameter:
    """One parameter of parameters.yaml (description, unit, dated values), validated with file:line."""
    where = f"parameter '{name}'"
    reject_unknown_keys(node, _PARAMETER_KEYS, where)
    require_keys(node, ("description", "unit"), where)
    if "values" not in node:
        raise RegimeDefinitionError(
            f"{where} has no 'values'; write 'values: []' if the value is unknown",
            message_pt=f"{where}: falta 'values'",
            file=node.source,
            line=node.line,
        )
    unit = Unit.parse(node["unit"], money=money, file=node.source, line=node.line_of("unit"))
    values = node["values"]
    if not isinstance(values, YamlList):
        raise RegimeDefinitionError(
            f"{where}: 'values' must be a list of dated values",
            message_pt=f"{where}: 'values' deve ser uma lista",
            file=node.source,
            line=node.line_of("values"),
        )
    parsed = [
        parse_value(
            name, unit, require_map(item, node.source, f"{where} value", values.line_at(i)), validate_cite
        )
        for i, item in enumerate(values)
    ]
    _reject_duplicate_dates(where, parsed, node)
    return Parameter(
        name,
        str(node["description"]),
        unit,
        tuple(sorted(parsed, key=lambda v: v.effective_from)),
        f"{node.source}:{node.line}",
        _configurable(node, where),
    )


def _configurable(node: YamlMap, where: str) -> bool:
    flag = node.get("configurable", False)
    if not isinstance(flag, bool):
        raise RegimeDefinitionError(
            f"{where}: 'configurable' must be true or false, got {flag!r}",
            message_pt=f"{where}: 'configurable' deve ser true ou false",
            file=node.source,
            line=node.line_of("configurable"),
        )
    return flag


def parse_value(name: str, unit: AnyUnit, node: YamlMap, validate_cite: CiteValidator) -> ParameterValue:
    """One ``{from, value, cite}`` item; CitationMissingError (file:line) when ``cite`` is absent."""
    where = f"value of parameter '{name}'"
    reject_unknown_keys(node, _VALUE_KEYS, where)
    if not node.get("cite"):
        raise CitationMissingError(
            f"{where} (from {node.get('from')}) has no 'cite'; every value must cite the dispositivo that fixes it",
            message_pt=f"o valor do parâmetro '{name}' não cita o dispositivo legal que o fixa ('cite')",
            file=node.source,
            line=node.line,
        )
    require_keys(node, ("from",), where)
    if "value" not in node:
        raise RegimeDefinitionError(
            f"{where} has no 'value' (write 'value: null' for a repeal)",
            message_pt=f"{where}: falta 'value'",
            file=node.source,
            line=node.line,
        )
    start = node["from"]
    if not isinstance(start, dt.date) or isinstance(start, dt.datetime):
        raise RegimeDefinitionError(
            f"{where}: 'from' must be a date YYYY-MM-DD, got {start!r}",
            message_pt=f"{where}: 'from' deve ser uma data AAAA-MM-DD",
            file=node.source,
            line=node.line_of("from"),
        )
    cite = validate_cite(node["cite"], node.source, node.line_of("cite"))
    confidence = str(node.get("confidence", "V"))
    if confidence not in CONFIDENCE_GRADES:
        raise RegimeDefinitionError(
            f"{where}: confidence must be one of {', '.join(CONFIDENCE_GRADES)}",
            file=node.source,
            line=node.line_of("confidence"),
        )
    value = coerce_value(node["value"], unit, file=node.source, line=node.line_of("value"))
    return ParameterValue(start, value, cite, confidence, node.get("note"), f"{node.source}:{node.line}")


def coerce_value(raw: Any, unit: AnyUnit, *, file: str | None = None, line: int | None = None) -> Any:
    """Normalise a YAML value for ``unit``: money and percent → Decimal, counts → int; lists/maps recursively."""
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        return {key: coerce_value(item, unit, file=file, line=line) for key, item in raw.items()}
    if isinstance(raw, list):
        return tuple(coerce_value(item, unit, file=file, line=line) for item in raw)
    try:
        return _coerce_scalar(raw, unit)
    except (ValueError, InvalidOperation, TypeError):
        raise RegimeDefinitionError(
            f"value {raw!r} does not fit unit '{unit.value}'",
            message_pt=f"o valor {raw!r} não é compatível com a unidade '{unit.label_pt}'",
            file=file,
            line=line,
        ) from None


def _coerce_scalar(raw: Any, unit: AnyUnit) -> Any:
    if unit is Unit.BOOLEAN:
        if not isinstance(raw, bool):
            raise TypeError(raw)
        return raw
    if unit is Unit.DATE:
        if not isinstance(raw, dt.date):
            raise TypeError(raw)
        return raw
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str, Decimal)):
        raise TypeError(raw)
    if unit.is_money or unit is Unit.PERCENT:
        return Decimal(str(raw))
    number = Decimal(str(raw))
    return int(number) if number == number.to_integral_value() else number


def _reject_duplicate_dates(where: str, values: list[ParameterValue], node: YamlMap) -> None:
    seen: set[dt.date] = set()
    for value in values:
        if value.effective_from in seen:
            raise RegimeDefinitionError(
                f"{where}: two values start on {value.effective_from.isoformat()}; keep one per date",
                message_pt=f"{where}: dois valores com a mesma data de início",
                file=node.source,
                line=node.line,
            )
        seen.add(value.effective_from)
