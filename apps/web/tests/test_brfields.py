"""Numbers and money as people type them in Brazil (apps/web/brfields.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django import forms

from apps.web.brfields import MoneyField, NumberField


class Form(forms.Form):
    amount = MoneyField(label="Valor pago (R$)")
    quantity = NumberField(label="Quantidade", required=False)


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("1.152,60", Decimal("1152.60")),
        ("R$ 1.152,60", Decimal("1152.60")),
        ("R$\u00a01.152,60", Decimal("1152.60")),
        ("1152,6", Decimal("1152.6")),
        ("1152.60", Decimal("1152.60")),
        ("1.152", Decimal("1152")),
        ("12.345.678,90", Decimal("12345678.90")),
    ],
)
def test_it_takes_money_as_the_guides_print_it(typed: str, value: Decimal) -> None:
    form = Form({"amount": typed})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["amount"] == value


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("1.152,605", "Valor pago (R$): use no máximo 2 casas decimais."),
        ("mil reais", "Valor pago (R$): informe um número, com vírgula para decimais (ex.: 1.152,60)."),
        ("-5,00", "Valor pago (R$): não pode ser menor que 0."),
    ],
)
def test_it_refuses_what_is_not_money_in_portuguese(typed: str, message: str) -> None:
    form = Form({"amount": typed})
    assert not form.is_valid() and form.errors["amount"] == [message]


def test_a_number_keeps_its_decimal_comma() -> None:
    form = Form({"amount": "1,00", "quantity": "1.234,5678"})
    assert form.is_valid() and form.cleaned_data["quantity"] == Decimal("1234.5678")


def test_money_is_shown_back_as_it_is_typed() -> None:
    assert Form(initial={"amount": Decimal("1152.60")})["amount"].value() is not None
    assert 'value="1.152,60"' in str(Form(initial={"amount": Decimal("1152.60")})["amount"])
