"""The penalty line of a printed auto: the labels the regime declares, amounts as a Brazilian writes them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import lawcode
from apps.enforcement.lawbridge import penalty_text
from lawcode.facts import InfractionCase, Operator

OLIMPIA = "olimpia_sp_escolar"


def test_a_fine_in_reais_reads_as_reais_and_is_not_repeated() -> None:
    fine = {"kind": "fine", "quantity": Decimal("286.00"), "unit": "brl", "brl": Decimal("286.00")}
    assert penalty_text(OLIMPIA, [fine]) == "Multa administrativa municipal de R$ 286,00"


def test_a_fine_in_fiscal_units_shows_its_value_in_reais() -> None:
    fine = {
        "kind": "fine",
        "quantity": Decimal(15),
        "unit": "ufesp",
        "brl": Decimal("559.05"),
        "doubled": True,
    }
    assert (
        penalty_text(OLIMPIA, [fine]) == "Multa administrativa municipal de 15 UFESP (R$ 559,05) (em dobro)"
    )


def test_the_label_is_the_regimes_not_the_code() -> None:
    assert (
        penalty_text(OLIMPIA, [{"kind": "inspection_required"}]) == "Vistoria do veículo ao fim da suspensão"
    )
    assert penalty_text(OLIMPIA, []) == "nenhuma penalidade municipal"


def test_the_printed_auto_shows_what_the_engine_decides() -> None:
    case = InfractionCase(code="OLI-25-I", date=dt.date(2026, 3, 2), operator=Operator(kind="PF"))
    decision = lawcode.evaluate(OLIMPIA, "sanction", case, as_of=dt.date(2026, 3, 2))
    text = penalty_text(OLIMPIA, decision.result["penalties"])
    assert text.startswith("Multa administrativa municipal de 30 UFESP (R$ ")
    assert "Suspensão da autorização de 60 dias" in text
