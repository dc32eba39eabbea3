"""The penalty line of an auto and a sanction: the engine's Portuguese labels, amounts as a Brazilian writes them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import lawcode
from apps.enforcement.lawbridge import penalty_text
from lawcode.facts import InfractionCase, Operator


def test_a_fine_in_reais_reads_as_reais_and_is_not_repeated() -> None:
    text = penalty_text(
        [
            {
                "kind": "fine",
                "label": "multa",
                "quantity": Decimal("286.00"),
                "unit": "brl",
                "brl": Decimal("286.00"),
            }
        ]
    )
    assert text == "multa de R$ 286,00"


def test_a_fine_in_fiscal_units_shows_its_value_in_reais() -> None:
    text = penalty_text(
        [
            {
                "kind": "fine",
                "label": "multa",
                "quantity": Decimal(15),
                "unit": "ufesp",
                "brl": Decimal("559.05"),
                "doubled": True,
            }
        ]
    )
    assert text == "multa de 15 UFESP (R$ 559,05) (em dobro)"


def test_the_label_is_the_one_the_engine_gives_not_the_code() -> None:
    assert (
        penalty_text([{"kind": "vehicle_seizure", "label": "apreensão do veículo"}]) == "apreensão do veículo"
    )
    assert penalty_text([]) == "nenhuma penalidade municipal"


def test_every_penalty_a_real_regime_returns_is_labelled() -> None:
    case = InfractionCase(code="OLI-25-I", date=dt.date(2026, 3, 2), operator=Operator(kind="PF"))
    decision = lawcode.evaluate("olimpia_sp_escolar", "sanction", case, as_of=dt.date(2026, 3, 2))
    assert [p["label"] for p in decision.result["penalties"]] == [
        "Multa administrativa municipal",
        "Suspensão da autorização",
        "Vistoria do veículo ao fim da suspensão",
    ]
    assert penalty_text(decision.result["penalties"]).startswith("multa administrativa municipal de 30 UFESP (R$ ")
