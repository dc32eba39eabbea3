"""The what-if builds each chunk's facts from rows loaded at once: the same facts as one by one, in a fixed
number of queries per chunk."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.licensing import lawbridge
from apps.licensing.choices import PERMIT_IN_FORCE_STATES
from apps.licensing.models import Application, Permit
from apps.registry.models import Ban, Driver
from apps.tenancy.demo import seed_demo
from apps.whatif import lawbridge as whatif_lawbridge

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(settings: Any, tmp_path: Any) -> dt.date:
    settings.MEDIA_ROOT = tmp_path
    seed_demo()
    today = timezone.localdate()
    company_holder = Application.objects.filter(operator__company__isnull=False).first()
    assert company_holder is not None  # the demo has company holders: give one a ban, read like a person's
    company = company_holder.operator.company
    assert company is not None
    Ban.objects.create(
        municipality=company.municipality,
        company=company,
        reason_code="clandestine_transport",
        start=today - dt.timedelta(days=30),
        until=today + dt.timedelta(days=365),
        source="teste",
    )
    return today


def _facts_or_refusal(build: Any) -> Any:
    try:
        return build()
    except ValidationError as refusal:
        return refusal.message_dict


def _permits_in_force() -> Any:
    return Permit.objects.filter(state__in=PERMIT_IN_FORCE_STATES).order_by("pk")


def test_chunk_facts_equal_one_by_one_facts_in_a_fixed_number_of_queries(demo: dt.date) -> None:
    """One test, so the demo (every regime) is seeded once."""
    _chunk_facts_equal_one_by_one(demo)
    _chunk_costs_the_same_queries_at_5_records_as_at_all_of_them(demo)


def _chunk_facts_equal_one_by_one(demo: dt.date) -> None:
    chunk = list(_permits_in_force().select_related(*whatif_lawbridge.PERMIT_RELATED))
    reads = whatif_lawbridge.permit_reads(chunk, demo)
    for permit in chunk:
        one_by_one = whatif_lawbridge.FactsCache().permit(permit, demo)
        assert whatif_lawbridge.FactsCache().permit(permit, demo, reads) == one_by_one, permit
    applications = list(Application.objects.select_related("operator", "vehicle").order_by("pk"))
    loaded = lawbridge.ChunkApplicationReads(applications, as_of=demo)
    for application in applications:
        alone = _facts_or_refusal(lambda a=application: lawbridge.application_facts(a, demo))
        assert _facts_or_refusal(lambda a=application: lawbridge.application_facts(a, demo, loaded)) == alone
    drivers = list(Driver.objects.select_related("person", "operator").order_by("pk"))
    people = whatif_lawbridge.driver_reads(drivers, demo)
    for driver in drivers:
        assert whatif_lawbridge.FactsCache().driver(
            driver, demo, people
        ) == whatif_lawbridge.FactsCache().driver(driver, demo)
    regimes = {p.regime_id for p in chunk}
    assert len(regimes) >= 3, regimes  # the demo's permits span the regimes (school, taxi, ride-hailing…)


APPLICATION_RELATED = (
    "operator__person",
    "operator__company",
    "vehicle",
    "fee_guide__payment",
    "driver__person",
    "attendant__person",
)


def _permit_chunk_queries(size: int, as_of: dt.date) -> int:
    """Queries to read a chunk of ``size`` permits and build all their facts, as the what-if does."""
    with CaptureQueriesContext(connection) as queries:
        chunk = list(_permits_in_force().select_related(*whatif_lawbridge.PERMIT_RELATED)[:size])
        reads = whatif_lawbridge.permit_reads(chunk, as_of)
        cache = whatif_lawbridge.FactsCache()
        for permit in chunk:
            cache.permit(permit, as_of, reads)
    assert len(chunk) == size
    return len(queries)


def _application_chunk_queries(size: int, as_of: dt.date) -> int:
    """The same for ``size`` applications of every kind (operators, drivers, attendants, vehicles)."""
    with CaptureQueriesContext(connection) as queries:
        chunk = list(Application.objects.select_related(*APPLICATION_RELATED).order_by("pk")[:size])
        reads = lawbridge.ChunkApplicationReads(chunk, as_of=as_of)
        for application in chunk:
            _facts_or_refusal(lambda a=application: lawbridge.application_facts(a, as_of, reads))
    assert len(chunk) == size
    return len(queries)


def _chunk_costs_the_same_queries_at_5_records_as_at_all_of_them(demo: dt.date) -> None:
    in_force, applications = _permits_in_force().count(), Application.objects.count()
    assert in_force >= 12 and applications >= 40, (in_force, applications)  # the demo's sizes
    assert _permit_chunk_queries(5, demo) == _permit_chunk_queries(in_force, demo) <= 10
    assert _application_chunk_queries(5, demo) == _application_chunk_queries(applications, demo) <= 10
