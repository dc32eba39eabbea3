"""What a charge costs in reais on a date, decided by the law engine (never computed here).

An amount in a unit the regime declares (units.yaml: a fiscal unit such as UFM or UFESP, reais re-indexed
yearly by an index, multiples of a tariff) goes through the regime's ``fine_amount`` question (via
finance's lawbridge), which reads the dated values the municipality configured, applies the law's or the
interpretation's valuation date and rounds half up to centavos. The Decision is stored on the guide so the
figure can be explained and replayed. Amounts already in reais (``brl``) only need rounding.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError

import lawcode
from apps.finance import lawbridge
from apps.finance.formatting import brl, decimal_pt
from apps.lawconfig.config import citation_text
from apps.tenancy.models import Municipality
from lawcode.units import FineUnit

CENTAVOS = Decimal("0.01")
REAIS = "brl"


@dataclass(frozen=True)
class Charge:
    """What to charge: a quantity of a unit, the dispositivo fixing it, and a short description."""

    quantity: Decimal
    unit: str
    cite: str
    description: str
    fee_kind: str = ""
    # For fines: the date of the auto de infração, which some regimes' readings use to value the unit.
    auto_date: dt.date | None = None


@dataclass(frozen=True)
class Valuation:
    amount_brl: Decimal
    unit_value: Decimal | None
    valuation_date: dt.date | None
    legal_basis: str
    decision: dict[str, Any] = field(default_factory=dict)


def legal_basis(municipality: Municipality, regime_id: str, cite: str, on: dt.date) -> str:
    """The citation rendered in Portuguese ("Lei 5.832/2025 (Patrocínio), art. 8º") in the wording the
    municipality's interpretation choices date; refuses unknown ones."""
    try:
        return citation_text(municipality, regime_id, cite, on)
    except lawcode.LawcodeError as exc:
        raise ValidationError(
            {"cite": f"Dispositivo '{cite}' inválido para {regime_id}: {exc.message_pt}"}
        ) from exc


def declared_unit(regime_id: str, unit: str) -> FineUnit | None:
    """The unit as the regime declares it (None for plain reais); ValidationError when it declares no such unit."""
    try:
        return lawcode.get_regime(regime_id).vocabulary.fine_unit(unit)
    except lawcode.LawcodeError:
        units = lawcode.get_regime(regime_id).vocabulary.units
        known = ", ".join(["R$", *(u.label for u in units.values())])
        raise ValidationError(
            {"unit": f"Unidade: {unit!r} não é prevista pela lei do regime (unidades previstas: {known})."}
        ) from None


def unit_label(regime_id: str, unit: str) -> str:
    """How people read the unit: "R$" for reais, the regime's label otherwise ("UFESP", "UFM", "R$ (INPC)")."""
    declared = declared_unit(regime_id, unit)
    return "R$" if declared is None else declared.label


def quantity_text(regime_id: str, quantity: Decimal, unit: str) -> str:
    """A quantity as people read it: "R$ 286,00" for reais (never "286,00 BRL"), "15 UFESP" otherwise."""
    if unit == REAIS:
        return brl(quantity)
    return f"{decimal_pt(quantity)} {unit_label(regime_id, unit)}"


def valuate(
    *, municipality: Municipality, regime_id: str, charge: Charge, fact_date: dt.date, issue_date: dt.date
) -> Valuation:
    """The charge in reais; ValidationError in Portuguese when the law cannot value it yet (no UFM…)."""
    basis = legal_basis(municipality, regime_id, charge.cite, fact_date)
    unit = declared_unit(regime_id, charge.unit)
    if unit is None:
        amount = charge.quantity.quantize(CENTAVOS, rounding=ROUND_HALF_UP)
        return Valuation(amount, None, None, basis)
    decision = _ask_engine(municipality, regime_id, charge, fact_date, issue_date, basis)
    unit_value, valued_on = _unit_value_used(decision, unit)
    amount = Decimal(str(decision.result["brl"])).quantize(CENTAVOS, rounding=ROUND_HALF_UP)
    return Valuation(amount, unit_value, valued_on, basis, decision.to_dict())


def _ask_engine(
    municipality: Municipality,
    regime_id: str,
    charge: Charge,
    fact_date: dt.date,
    issue_date: dt.date,
    basis: str,
) -> lawcode.Decision:
    try:
        return lawbridge.fine_amount(
            municipality,
            regime_id,
            quantity=charge.quantity,
            unit=charge.unit,
            fact_date=fact_date,
            auto_date=charge.auto_date,
            issue_date=issue_date,
        )
    except lawcode.MissingParameterError as exc:
        raise ValidationError(
            {"amount_brl": _missing_unit_message(municipality, regime_id, charge, exc, basis)}
        ) from exc
    except lawcode.LawcodeError as exc:
        raise ValidationError(
            {"amount_brl": f"Não foi possível calcular o valor ({basis}): {exc.message_pt}"}
        ) from exc


def _missing_unit_message(
    municipality: Municipality, regime_id: str, charge: Charge, exc: lawcode.MissingParameterError, basis: str
) -> str:
    unit = declared_unit(regime_id, charge.unit)
    label = unit_label(regime_id, charge.unit)
    what = (
        f"o valor da {label}" if unit is None or unit.valued_by == "parameter" else f"o reajuste ({exc.name})"
    )
    return (
        f"Valor em reais: não é possível converter {decimal_pt(charge.quantity)} {label} ({basis}) porque {what} "
        f"de {municipality.name} em {exc.on:%d/%m/%Y} não está configurado. Um administrador deve cadastrá-lo na "
        "configuração legal do município."
    )


def _unit_value_used(decision: lawcode.Decision, unit: FineUnit) -> tuple[Decimal | None, dt.date | None]:
    """What one unit was worth and the date it was valued on, from the decision's parameter trace: the
    parameter's value (a fiscal unit, a tariff), or the cumulative factor of the re-indexing percentages."""
    uses = [use for use in decision.parameters if use.name == unit.parameter]
    if not uses:
        return (Decimal(1), None) if unit.valued_by == "index" else (None, None)
    if unit.valued_by == "index":
        factor = Decimal(1)
        for use in uses:
            factor *= 1 + Decimal(str(use.value)) / 100
        return factor.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP), uses[-1].on
    return Decimal(str(uses[0].value)), uses[0].on
