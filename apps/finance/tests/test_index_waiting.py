"""An amount re-indexed every 1st January (São José dos Campos, art. 22, § 2º of Lei 8.698/2012) is not valued with
an earlier year's factor while that year's index is missing: the guide waits for "o valor do índice de 2027"
(issue 27)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal

import pytest

from apps.finance.valuation import Charge, ValueNotYetEntered, valuate
from apps.lawconfig.services import parameter_value_set
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
REGIME = "sao_jose_dos_campos_sp_taxi"
CHARGE = Charge(quantity=Decimal("386.21"), unit="brl_sjc", cite="art22_par2", description="Multa")


@pytest.fixture
def sao_jose(make_municipality: Callable[..., Municipality]) -> Municipality:
    town = make_municipality("3549904", "São José dos Campos", "SP", [REGIME])
    for year in range(2013, 2027):
        parameter_value_set(
            actor=None,
            municipality=town,
            regime_id=REGIME,
            parameter="fine_update_percent",
            valid_from=dt.date(year, 1, 1),
            value=Decimal("1"),
            cite="art22_par2",
            source=f"Decreto do índice de {year}",
        )
    return town


def test_a_fine_valued_in_january_without_the_years_index_waits_for_it(sao_jose: Municipality) -> None:
    december = valuate(
        municipality=sao_jose,
        regime_id=REGIME,
        charge=CHARGE,
        fact_date=dt.date(2026, 12, 31),
        issue_date=dt.date(2027, 1, 2),
    )
    assert december.amount_brl == (Decimal("386.21") * Decimal("1.01") ** 14).quantize(Decimal("0.01"))
    with pytest.raises(ValueNotYetEntered) as waiting:
        valuate(
            municipality=sao_jose,
            regime_id=REGIME,
            charge=CHARGE,
            fact_date=dt.date(2027, 1, 2),
            issue_date=dt.date(2027, 1, 2),
        )
    assert waiting.value.missing_value.startswith("valor do índice de 2027 (atualização anual das multas")
    assert waiting.value.missing_on == dt.date(2027, 1, 1)
    assert "configuração legal do município" in waiting.value.where
