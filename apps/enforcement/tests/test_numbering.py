"""Auto numbers 'AI-NNNN/YYYY': sequential per municipality and year, no gap or duplicate when eight agents
file at once (tenancy.Counter row lock + unique constraint). The race only exists on PostgreSQL."""

from __future__ import annotations

import dataclasses
import multiprocessing
import multiprocessing.synchronize

import pytest
from django.db import connection, connections

from apps.accounts.models import User
from apps.enforcement.models import InfractionCase
from apps.enforcement.services import case_open
from apps.tenancy.models import Counter, Municipality

from .conftest import RECORDED_AT
from .test_case_open import FULL

PROCESSES = 8
PER_PROCESS = 4


def _open_in_child(municipality_id: int, agent_id: int, barrier: multiprocessing.synchronize.Barrier) -> None:
    """Runs in a forked process with its own database connection."""
    municipality, agent = Municipality.objects.get(pk=municipality_id), User.objects.get(pk=agent_id)
    details = dataclasses.replace(FULL, plate="ABC1D23")
    barrier.wait()
    for _ in range(PER_PROCESS):
        case_open(municipality=municipality, actor=agent, details=details, recorded_at=RECORDED_AT)
    connection.close()


@pytest.mark.django_db(transaction=True)
def test_eight_agents_filing_at_once_get_every_number_exactly_once(
    olimpia: Municipality, agent_olimpia: User
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite serializes every writer, there is no race to test")
    connections.close_all()  # each forked child must open its own connection
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES)
    workers = [
        context.Process(target=_open_in_child, args=(olimpia.pk, agent_olimpia.pk, barrier))
        for _ in range(PROCESSES)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0] * PROCESSES
    numbers = sorted(InfractionCase.objects.values_list("number", flat=True))
    assert numbers == [f"AI-{n:04d}/2026" for n in range(1, PROCESSES * PER_PROCESS + 1)]
    assert (
        Counter.objects.get(municipality=olimpia, kind="infraction_case", year=2026).last
        == PROCESSES * PER_PROCESS
    )
