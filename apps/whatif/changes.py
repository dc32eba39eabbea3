"""What a municipality may simulate: the parameters and interpretations its regime declares, turned into a
lawcode ``Reform``. Nothing here names a regime: the choices come from the regime's own declarations."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import lawcode
from apps.whatif.choices import ChangeKind
from lawcode.bulk import Reform
from lawcode.decision import format_value_pt
from lawcode.errors import MissingParameterError
from lawcode.params import Parameter, coerce_value


@dataclass(frozen=True)
class ProposedChange:
    """A parameter's new value from a date, or an interpretation switched to another option (an
    interpretation that dates an amendment switches the wording of the law the engine cites and applies)."""

    kind: str
    name: str
    value: Decimal | None = None
    effective_from: dt.date | None = None
    option: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "value": None if self.value is None else str(self.value),
            "effective_from": self.effective_from.isoformat() if self.effective_from else None,
            "option": self.option,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ProposedChange:
        start = data.get("effective_from")
        return cls(
            kind=data["kind"],
            name=data["name"],
            value=Decimal(data["value"]) if data.get("value") is not None else None,
            effective_from=dt.date.fromisoformat(start) if start else None,
            option=data.get("option") or "",
        )


def simulable_parameters(regime_id: str) -> list[Parameter]:
    """Parameters with a single number in force (a table or a list is not a value one types in a form)."""
    regime = lawcode.get_regime(regime_id)
    return [
        parameter
        for _, parameter in sorted(regime.parameters.items())
        if parameter.values and isinstance(parameter.values[-1].value, int | Decimal)
    ]


def reform_for(regime_id: str, change: ProposedChange, as_of: dt.date) -> Reform:
    """The change as the engine's Reform, cited with the dispositivo that fixes the parameter today."""
    regime = lawcode.get_regime(regime_id)
    label = change_label(regime_id, change, as_of)
    if change.kind == ChangeKind.INTERPRETATION:
        return Reform(name=label, interpretations={change.name: change.option})
    parameter = regime.parameters[change.name]
    value = coerce_value(change.value, parameter.unit)
    cite = parameter.values[-1].cite
    return Reform.from_parameters(
        {change.name: value}, cite=cite, name=label, effective_from=change.effective_from
    )


def change_label(regime_id: str, change: ProposedChange, as_of: dt.date) -> str:
    """The change in Portuguese: "Idade máxima do veículo: 15 anos → 10 anos, a partir de 01/03/2026"."""
    regime = lawcode.get_regime(regime_id)
    if change.kind == ChangeKind.INTERPRETATION:
        interpretation = regime.interpretations[change.name]
        return f"{interpretation.question}: {interpretation.option_text(change.option)}"
    parameter = regime.parameters[change.name]
    unit = parameter.unit.value
    new = format_value_pt(coerce_value(change.value, parameter.unit), unit)
    start = f", a partir de {change.effective_from.strftime('%d/%m/%Y')}" if change.effective_from else ""
    return f"{parameter.description}: {_current(parameter, regime_id, unit, as_of)} → {new}{start}"[:300]


def _current(parameter: Parameter, regime_id: str, unit: str, as_of: dt.date) -> str:
    try:
        return format_value_pt(parameter.value_on(as_of, regime_id).value, unit)
    except MissingParameterError:
        return "sem valor"
