"""Guide numbers stay unique and gapless when many are issued at once (PostgreSQL row locks)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from apps.finance.models import FeeSchedule, PaymentGuide
from apps.finance.tests.conftest import DAY, issue_permit_guide
from apps.tenancy.models import Counter, Municipality

WORKERS = 8


def _issue_in_own_connection(municipality_id: int, origin_id: int) -> str:
    try:
        municipality = Municipality.objects.get(pk=municipality_id)
        return issue_permit_guide(municipality, origin_id=origin_id, day=DAY).number
    finally:
        connection.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_concurrent_issuers_get_distinct_consecutive_numbers(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are what this test exercises; SQLite serializes every writer (IMMEDIATE)")
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        numbers = list(pool.map(lambda origin: _issue_in_own_connection(olimpia.pk, origin), range(1, 33)))
    assert sorted(numbers) == [f"{n:06d}/2026" for n in range(1, 33)]
    assert PaymentGuide.objects.count() == 32
    assert Counter.objects.get(municipality=olimpia, kind="payment_guide", year=2026).last == 32
