"""The JSON form lawcode stores and replays values in: facts (``facts.to_dict``), a decision's data and
results (``Decision.to_dict``), and the typed values an app keeps from a regime's declared fields (a document's
details, extra facts). Not about facts alone, so no module that merely stores a value needs ``lawcode.facts``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """Field names of a dataclass, memoised (bulk evaluation serialises many facts of few classes)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def json_safe(value: Any) -> Any:
    """Dates/times ISO, Decimal as string, tuples/lists as lists, mappings with sorted string keys."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if hasattr(type(value), "__dataclass_fields__") and not isinstance(value, type):
        return {name: json_safe(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((json_safe(v) for v in value), key=str)  # sets have no order; sorted keeps dicts stable
    if hasattr(value, "value") and isinstance(getattr(value, "value", None), str) and hasattr(value, "name"):
        return value.value
    return value
