"""A charge the law cannot value yet says which value is missing and who enters it (never "an administrator
should enter it in the legal configuration" for a value the municipality cannot enter)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from apps.finance.valuation import Charge, ValueNotYetEntered, valuate

pytestmark = pytest.mark.django_db


def test_next_years_ufesp_is_named_with_the_installations_screen(olimpia: Any) -> None:
    charge = Charge(quantity=Decimal(15), unit="ufesp", cite="art30_incVII", description="Multa")
    with pytest.raises(ValueNotYetEntered) as missing:
        valuate(
            municipality=olimpia,
            regime_id="olimpia_sp_escolar",
            charge=charge,
            fact_date=dt.date(2027, 1, 2),
            issue_date=dt.date(2027, 1, 2),
        )
    assert missing.value.missing_value == "valor da UFESP de 2027"
    assert missing.value.missing_on == dt.date(2027, 1, 2)
    assert "administrador da instalação" in missing.value.where
    message = missing.value.message_dict["amount_brl"][0]
    assert "15 UFESP" in message and "ainda não cadastrado" in message
    assert "configuração legal do município" not in message


def test_a_ufm_the_town_fixes_is_named_with_its_legal_configuration(votuporanga: Any) -> None:
    charge = Charge(quantity=Decimal(135), unit="ufm", cite="art4_par5", description="Multa")
    with pytest.raises(ValueNotYetEntered) as missing:
        valuate(
            municipality=votuporanga,
            regime_id="votuporanga_sp_escolar",
            charge=charge,
            fact_date=dt.date(2027, 1, 2),
            issue_date=dt.date(2027, 1, 2),
        )
    assert missing.value.missing_value == "valor da UFM de 2027"
    assert "administrador de Votuporanga, na configuração legal do município" in missing.value.where
