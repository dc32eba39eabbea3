from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from apps.finance.choices import FeeKind, OriginType
from apps.finance.models import FeeSchedule, FinanceSettings, PaymentGuide
from apps.finance.services import fee_guide_issue
from apps.finance.tests.conftest import DAY
from apps.tenancy.demo import seed_demo
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def test_the_demo_seeds_pix_receivers_and_patrocinios_inspection_fee_once() -> None:
    seed_demo()
    seed_demo()
    assert FinanceSettings.objects.count() == 4
    fee = FeeSchedule.objects.get()
    assert (fee.municipality.ibge_code, fee.fee_kind, fee.quantity, fee.unit, fee.cite) == (
        "3148103",
        FeeKind.INSPECTION,
        Decimal("0.25"),
        "ufm",
        "art8",
    )


def test_the_demo_leaves_patrocinios_ufm_unknown_so_the_fee_guide_says_so() -> None:
    seed_demo()
    patrocinio = Municipality.objects.get(ibge_code="3148103")
    with pytest.raises(ValidationError, match="ainda não cadastrado"):
        fee_guide_issue(
            actor=None,
            municipality=patrocinio,
            fee_kind=FeeKind.INSPECTION,
            payer_name="Ana",
            payer_document="52998224725",
            origin_type=OriginType.APPLICATION,
            origin_id=1,
            fact_date=DAY,
            as_of=DAY,
        )
    assert not PaymentGuide.objects.filter(municipality=patrocinio, origin_id=1).exists()
