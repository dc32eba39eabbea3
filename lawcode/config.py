"""Per-municipality configuration: parameter overrides (and reforms), interpretation choices, closures.

    config = Config.from_dict({
        "interpretations": {"INT-OLI-RECIDIVISM-ANCHOR": "prior_infraction_date"},
        "parameters": {"ufm": [{"from": "2026-01-01", "value": "5.45", "cite": "art8",
                                "note": "Decreto municipal nº …/2026"}]},
        "closures": [{"date": "2026-10-30", "name": "Ponto facultativo (Decreto …)"}],
        "early_closings": [{"date": "2026-12-23", "name": "Expediente até 12h (Decreto …)"}],
        "acts": [{"key": "ato_12", "title": "Comunicado DICAR-90/26 da SEFAZ-SP (UFESP 2027)",
                  "cite_as": "Comunicado DICAR-90/26 da SEFAZ-SP, publicado em 18/12/2026",
                  "published": "2026-12-18", "in_force": "2027-01-01"}],
    })
    lawcode.evaluate("exemplo_sp_escolar", "fine_amount", facts, as_of=day, config=config)

Parameter override values need a ``cite`` like any other value; the regime validates the citations and the
parameter names when it evaluates (UnknownParameterError / UnknownDispositivoError).

``acts`` are acts entered outside the code (a SEFAZ-SP comunicado fixing next year's UFESP, a tariff decree typed
on a screen): each is citable whole, by its key, by the Config's parameter values, and renders as its
``cite_as`` — so a value entered by an administrator explains itself like one shipped in data/ufesp.csv, and
external_acts.yaml is never edited at run time. A key may not clash with an act the regime already knows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from lawcode.acts import Act
from lawcode.errors import CitationMissingError, InvalidFactError
from lawcode.params import ParameterValue

_CONFIG_KEYS = ("parameters", "interpretations", "municipal_holidays", "closures", "early_closings", "acts")
_ACT_KEYS = ("key", "title", "cite_as", "published", "in_force")


@dataclass(frozen=True)
class DatedEntry:
    """A municipal holiday or closure day added by configuration."""

    date: dt.date
    name: str


@dataclass(frozen=True)
class DeclaredAct:
    """An act entered outside the code, cited whole by the Config's values (see the module docstring)."""

    key: str
    title: str
    cite_as: str
    published: dt.date | None = None
    in_force: dt.date | None = None

    def to_act(self) -> Act:
        return Act(self.key, self.title, self.cite_as, self.published, self.in_force, whole_act=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "title": self.title,
            "cite_as": self.cite_as,
            "published": self.published.isoformat() if self.published else None,
            "in_force": self.in_force.isoformat() if self.in_force else None,
        }


@dataclass(frozen=True)
class Config:
    """Overrides for one municipality. Empty by default: the regime's own data applies."""

    parameters: Mapping[str, tuple[ParameterValue, ...]] = field(default_factory=dict)
    interpretations: Mapping[str, str] = field(default_factory=dict)
    municipal_holidays: tuple[DatedEntry, ...] = ()
    closures: tuple[DatedEntry, ...] = ()
    early_closings: tuple[DatedEntry, ...] = ()
    """Days the office closed before the usual hour: business days on which no deadline may end
    (Lei 9.784/1999 art. 66 §1)."""
    acts: tuple[DeclaredAct, ...] = ()
    """Acts entered outside the code that the parameter values cite (a comunicado, a decree)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, where: str = "config") -> Config:
        """Build from a YAML/JSON dict; InvalidFactError/CitationMissingError name the bad field."""
        if not data:
            return cls()
        if not isinstance(data, Mapping):
            raise InvalidFactError(where, "must be a mapping with parameters/interpretations/closures")
        for key in data:
            if key not in _CONFIG_KEYS:
                raise InvalidFactError(f"{where}.{key}", f"unknown key; allowed: {', '.join(_CONFIG_KEYS)}")
        return cls(
            parameters=_parameters(data.get("parameters") or {}, f"{where}.parameters"),
            interpretations=_interpretations(data.get("interpretations") or {}, f"{where}.interpretations"),
            municipal_holidays=_entries(data.get("municipal_holidays") or [], f"{where}.municipal_holidays"),
            closures=_entries(data.get("closures") or [], f"{where}.closures"),
            early_closings=_entries(data.get("early_closings") or [], f"{where}.early_closings"),
            acts=_acts(data.get("acts") or [], f"{where}.acts"),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe and deterministic (keys sorted), recorded in each decision's inputs."""
        return {
            "parameters": {
                name: [_value_dict(v) for v in values] for name, values in sorted(self.parameters.items())
            },
            "interpretations": dict(sorted(self.interpretations.items())),
            "municipal_holidays": [
                {"date": e.date.isoformat(), "name": e.name} for e in self.municipal_holidays
            ],
            "closures": [{"date": e.date.isoformat(), "name": e.name} for e in self.closures],
            "early_closings": [{"date": e.date.isoformat(), "name": e.name} for e in self.early_closings],
            **({"acts": [act.to_dict() for act in self.acts]} if self.acts else {}),
        }

    def is_empty(self) -> bool:
        return not (
            self.parameters
            or self.interpretations
            or self.municipal_holidays
            or self.closures
            or self.early_closings
            or self.acts
        )


def _value_dict(value: ParameterValue) -> dict[str, Any]:
    raw = value.value
    shown = str(raw) if isinstance(raw, Decimal) else raw.isoformat() if isinstance(raw, dt.date) else raw
    out: dict[str, Any] = {"from": value.effective_from.isoformat(), "value": shown, "cite": value.cite}
    if value.note:
        out["note"] = value.note
    return out


def _date(raw: Any, where: str) -> dt.date:
    if isinstance(raw, dt.date) and not isinstance(raw, dt.datetime):
        return raw
    if isinstance(raw, str):
        try:
            return dt.date.fromisoformat(raw)
        except ValueError:
            pass
    raise InvalidFactError(where, f"expected a date YYYY-MM-DD, got {raw!r}")


def _parameters(data: Any, where: str) -> dict[str, tuple[ParameterValue, ...]]:
    if not isinstance(data, Mapping):
        raise InvalidFactError(where, "must map parameter names to lists of {from, value, cite}")
    out = {}
    for name, values in data.items():
        if not isinstance(values, list):
            raise InvalidFactError(f"{where}.{name}", "must be a list of {from, value, cite}")
        out[str(name)] = tuple(
            _parameter_value(item, f"{where}.{name}[{i}]") for i, item in enumerate(values)
        )
    return out


def _parameter_value(item: Any, where: str) -> ParameterValue:
    if not isinstance(item, Mapping):
        raise InvalidFactError(where, "must be a mapping {from, value, cite}")
    if not item.get("cite"):
        raise CitationMissingError(
            f"{where} has no 'cite'; an override must cite the dispositivo (or act) that fixes it",
            message_pt="o valor configurado não cita a norma que o fixa ('cite')",
            field=where,
        )
    if "from" not in item or "value" not in item:
        raise InvalidFactError(where, "needs 'from' and 'value'")
    note = item.get("note")
    return ParameterValue(
        _date(item["from"], f"{where}.from"),
        item["value"],
        str(item["cite"]),
        str(item.get("confidence", "V")),
        str(note) if note else None,
        where,
    )


def _interpretations(data: Any, where: str) -> dict[str, str]:
    if not isinstance(data, Mapping):
        raise InvalidFactError(where, "must map INT-… ids to option keys")
    return {str(key): str(value) for key, value in data.items()}


def _entries(data: Any, where: str) -> tuple[DatedEntry, ...]:
    if not isinstance(data, list):
        raise InvalidFactError(where, "must be a list of {date, name}")
    out = []
    for index, item in enumerate(data):
        if not isinstance(item, Mapping) or "date" not in item:
            raise InvalidFactError(f"{where}[{index}]", "must be a mapping {date, name}")
        out.append(DatedEntry(_date(item["date"], f"{where}[{index}].date"), str(item.get("name", ""))))
    return tuple(out)


def _acts(data: Any, where: str) -> tuple[DeclaredAct, ...]:
    if not isinstance(data, list):
        raise InvalidFactError(where, "must be a list of {key, title, cite_as, published, in_force}")
    out = []
    for i, item in enumerate(data):
        at = f"{where}[{i}]"
        if not isinstance(item, Mapping) or not all(item.get(k) for k in ("key", "title", "cite_as")):
            raise InvalidFactError(at, "needs 'key', 'title' and 'cite_as'")
        unknown = set(item) - set(_ACT_KEYS)
        if unknown:
            raise InvalidFactError(at, f"unknown key(s) {', '.join(sorted(unknown))}")
        published, in_force = item.get("published"), item.get("in_force")
        out.append(
            DeclaredAct(
                str(item["key"]),
                str(item["title"]),
                str(item["cite_as"]),
                _date(published, f"{at}.published") if published else None,
                _date(in_force, f"{at}.in_force") if in_force else None,
            )
        )
    return tuple(out)
