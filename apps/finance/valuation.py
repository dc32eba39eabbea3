"""What a charge costs in reais on a date, decided by the law engine (never computed here).

An amount in a unit the regime declares (units.yaml: a fiscal unit such as UFM or UFESP, reais re-indexed
yearly by an index, multiples of a tariff) goes through the regime's ``fine_amount`` question (via
finance's lawbridge), which reads the dated values the municipality configured, applies the law's or the
interpretation's valuation date and rounds half up to centavos. The Decision is stored on the guide so the
figure can be explained and replayed. Amounts already in reais (``brl``) only need rounding.

When a dated value the law leans on is not entered yet (next year's UFESP on 2 January, the town's UFM), the
charge cannot be valued: ``ValueNotYetEntered`` says which value, for which date, and where it is entered, so
the guide can wait for it (services.guide_wait) instead of failing.
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
    # For fines: the dates of the auto de infração and of the final decision, which some regimes' readings use
    # to value the unit (the same facts the sanction was decided on, so both read one valuation date).
    auto_date: dt.date | None = None
    decided_final_on: dt.date | None = None


@dataclass(frozen=True)
class Valuation:
    amount_brl: Decimal
    unit_value: Decimal | None
    valuation_date: dt.date | None
    legal_basis: str
    decision: dict[str, Any] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """Why this amount, in Portuguese: the engine's findings and the interpretation it applied."""
        return valuation_reason(self.decision, self.legal_basis)


class ValueNotYetEntered(ValidationError):
    """The law cannot value the charge yet: ``missing_value`` ("valor da UFESP de 2027") for ``missing_on`` has
    not been entered; ``where`` says who enters it and on which screen."""

    def __init__(self, *, missing_value: str, missing_on: dt.date, where: str, message: str) -> None:
        super().__init__({"amount_brl": message})
        self.missing_value, self.missing_on, self.where = missing_value, missing_on, where


def valuation_reason(decision: dict[str, Any], basis: str) -> str:
    """The reason a valuation gives, from its stored decision: the findings, then the readings it applied."""
    findings = [
        str(item.get("message", "")) for item in decision.get("findings") or [] if item.get("message")
    ]
    readings = [
        f"{use.get('question', '')} {use.get('option_text', '')}".strip()
        for use in decision.get("interpretations") or []
        if use.get("question") or use.get("option_text")
    ]
    cited = [str(item["text"]) for item in decision.get("citations") or [] if item.get("text")]
    text = "; ".join(findings) or "Valor em reais"
    if readings:
        text += ". Leitura adotada: " + " ".join(readings)
    return f"{text} ({'; '.join(dict.fromkeys([basis, *cited]))})."


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
            decided_final_on=charge.decided_final_on,
            issue_date=issue_date,
        )
    except lawcode.MissingParameterError as exc:
        raise _not_yet_entered(municipality, regime_id, charge, exc, basis) from exc
    except lawcode.LawcodeError as exc:
        raise ValidationError(
            {"amount_brl": f"Não foi possível calcular o valor ({basis}): {exc.message_pt}"}
        ) from exc


def _not_yet_entered(
    municipality: Municipality, regime_id: str, charge: Charge, exc: lawcode.MissingParameterError, basis: str
) -> ValueNotYetEntered:
    """Which value is missing, named as people know it, and where it is entered: the municipality's legal
    configuration for a value the law leaves to the town (a UFM, a tariff), the installation's external values
    for a state's or the Union's (the UFESP, an IBGE index)."""
    unit = declared_unit(regime_id, charge.unit)
    label = unit_label(regime_id, charge.unit)
    year = exc.on.year
    parameter = lawcode.get_regime(regime_id).parameters.get(exc.name)
    if unit is not None and unit.valued_by == "index":
        # "valor do índice de 2027 (atualização anual das multas …)": the parameter's own description names it
        described = str(getattr(parameter, "description", "") or label)
        missing = f"valor do índice de {year} ({described[:1].lower()}{described[1:]})"[:200]
    elif (unit is not None and unit.per_calendar_year) or _yearly(parameter):
        missing = f"valor da {label} de {year}"
    else:
        missing = f"valor da {label} vigente em {exc.on:%d/%m/%Y}"
    if parameter is not None and parameter.configurable:
        where = f"pelo administrador de {municipality.name}, na configuração legal do município"
    else:
        where = "pelo administrador da instalação, nos valores externos (UFESP e índices)"
    message = (
        f"Valor em reais: {decimal_pt(charge.quantity)} {label} ({basis}) só pode ser convertido com o "
        f"{missing}, ainda não cadastrado (ele é cadastrado {where})."
    )
    return ValueNotYetEntered(missing_value=missing, missing_on=exc.on, where=where, message=message)


def _yearly(parameter: Any) -> bool:
    """Whether a parameter's values are one per calendar year (each from 1 January), like a UFM."""
    values = getattr(parameter, "values", None) or ()
    return bool(values) and all(
        (value.effective_from.month, value.effective_from.day) == (1, 1) for value in values
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
