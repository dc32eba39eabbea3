"""What a charge costs in reais on a date, decided by the law engine (never computed here).

Amounts in UFM/UFESP go through the regime's ``fine_amount`` question (via apps.lawconfig.engine), which reads
the municipality's UFM table and the official UFESP values, applies the regime's interpretation of which date
values the unit (Patrocínio: INT-PAT-UFM-DATE) and rounds half up to centavos. The Decision is stored on the
guide so the figure can be explained and replayed. Amounts already in reais only need rounding.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal, cast

from django.core.exceptions import ValidationError

import lawcode
from apps.finance.choices import ChargeUnit
from apps.finance.formatting import decimal_pt
from apps.lawconfig import engine
from apps.tenancy.models import Municipality
from lawcode.facts import FineFacts

CENTAVOS = Decimal("0.01")
UNIT_LABELS = {ChargeUnit.UFM: "UFM", ChargeUnit.UFESP: "UFESP", ChargeUnit.BRL: "R$"}


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
        return engine.citation_text(municipality, regime_id, cite, on)
    except lawcode.LawcodeError as exc:
        raise ValidationError(
            {"cite": f"Dispositivo '{cite}' inválido para {regime_id}: {exc.message_pt}"}
        ) from exc


def valuate(
    *, municipality: Municipality, regime_id: str, charge: Charge, fact_date: dt.date, issue_date: dt.date
) -> Valuation:
    """The charge in reais; ValidationError in Portuguese when the law cannot value it yet (no UFM…)."""
    basis = legal_basis(municipality, regime_id, charge.cite, fact_date)
    if charge.unit == ChargeUnit.BRL:
        amount = charge.quantity.quantize(CENTAVOS, rounding=ROUND_HALF_UP)
        return Valuation(amount, None, None, basis)
    decision = _ask_engine(municipality, regime_id, charge, fact_date, issue_date, basis)
    unit_value, valued_on = _unit_value_used(decision, charge.unit)
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
    unit = cast(Literal["ufesp", "ufm", "brl"], charge.unit)
    facts = FineFacts(quantity=charge.quantity, unit=unit, infraction_date=fact_date, auto_date=charge.auto_date,
                      guide_issue_date=issue_date)  # fmt: skip
    try:
        return engine.evaluate(
            municipality=municipality,
            question="fine_amount",
            facts=facts,
            as_of=issue_date,
            regime_id=regime_id,
        )
    except lawcode.MissingParameterError as exc:
        raise ValidationError(
            {"amount_brl": _missing_unit_message(municipality, charge, exc, basis)}
        ) from exc
    except lawcode.LawcodeError as exc:
        raise ValidationError(
            {"amount_brl": f"Não foi possível calcular o valor ({basis}): {exc.message_pt}"}
        ) from exc


def _missing_unit_message(
    municipality: Municipality, charge: Charge, exc: lawcode.MissingParameterError, basis: str
) -> str:
    unit = UNIT_LABELS.get(ChargeUnit(charge.unit), charge.unit.upper())
    return (
        f"Valor em reais: não é possível converter {decimal_pt(charge.quantity)} {unit} ({basis}) porque o valor "
        f"da {unit} de {municipality.name} em {exc.on:%d/%m/%Y} não está configurado. Um administrador deve "
        f"cadastrá-lo na configuração legal do município (valores de unidade fiscal)."
    )


def _unit_value_used(decision: lawcode.Decision, unit: str) -> tuple[Decimal | None, dt.date | None]:
    """The unit value and the date it was read on, from the decision's parameter trace."""
    for use in decision.parameters:
        if use.name == unit:
            return Decimal(str(use.value)), use.on
    return None, None
