"""Permit numbers: 'NNNN/YYYY', sequential per municipality and year, with no gap or duplicate when many
processes issue at once (the tenancy.Counter row lock + unique constraint)."""

from __future__ import annotations

import multiprocessing
import multiprocessing.synchronize
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections, transaction

from apps.accounts.actors import SYSTEM_ACTOR_NAME
from apps.audit.models import AuditEvent
from apps.audit.verification import verify_chain
from apps.licensing import services
from apps.licensing.casebook import Case
from apps.licensing.models import Application, ApplicationEvent, Permit
from apps.licensing.tests.conftest import AS_OF, issue_permit, to_analysis
from apps.tenancy.models import Counter, Municipality
from apps.tenancy.numbering import format_number, number_sql, number_take, numbered_insert

PROCESSES = 8
PER_PROCESS = 5


def test_format_pads_to_four_digits_and_keeps_longer_numbers() -> None:
    assert format_number(7, 2026) == "0007/2026"
    assert format_number(12345, 2026) == "12345/2026"


@pytest.mark.django_db
def test_the_sql_format_writes_what_format_number_writes() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("number_sql is PostgreSQL's (numbered_insert's one statement)")
    sequences = [1, 7, 42, 999, 1000, 9999, 10000, 123456]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {number_sql('s')} FROM unnest(%s::int[]) AS s ORDER BY s",  # noqa: S608
            ["2026", sequences],  # the year first: number_sql's parameter comes before the FROM
        )
        written = [row[0] for row in cursor.fetchall()]
    assert written == [format_number(sequence, 2026) for sequence in sequences]


@pytest.mark.django_db
def test_a_numbered_insert_takes_the_next_number_with_the_row(olimpia_pf: Case) -> None:
    issued = []
    # The year's first number creates the counter row on the way; the second is one statement on PostgreSQL.
    for pk in _ready_applications(olimpia_pf, 2):
        with transaction.atomic():
            application = Application.objects.select_related("municipality", "operator", "vehicle").get(pk=pk)
            issued.append(services.permit_issue(application=application, actor=None, as_of=AS_OF))
    expected = [(1, "0001/2026"), (2, "0002/2026")]
    assert [(permit.sequence, permit.number) for permit in issued] == expected
    stored = {permit.pk: (permit.sequence, permit.number) for permit in Permit.objects.all()}
    assert [stored[permit.pk] for permit in issued] == expected
    assert Counter.objects.get(municipality=issued[0].municipality, kind="permit", year=2026).last == 2
    # The timeline line goes in with the audit event (one statement on PostgreSQL): stored whole, chain intact.
    line = ApplicationEvent.objects.get(application=issued[1].application, kind="permit_issued")
    assert (line.state_from, line.state_to, line.actor_name) == ("approved", "approved", SYSTEM_ACTOR_NAME)
    assert issued[1].valid_until is not None
    assert line.data == {"permit": "0002/2026", "valid_until": issued[1].valid_until.isoformat()}
    event = AuditEvent.objects.get(action="permit.issue", object_id=str(issued[1].pk))
    assert (event.after or {}).get("number") == "0002/2026"
    report = verify_chain(issued[1].municipality.ibge_code)
    assert report.ok, report.broken


@pytest.mark.django_db(transaction=True)
def test_a_numbered_insert_outside_a_transaction_is_a_programming_error(olimpia_pf: Case) -> None:
    permit = Permit(municipality=olimpia_pf.operator.municipality, year=2026)
    with pytest.raises(RuntimeError, match="transaction.atomic"):
        numbered_insert(kind="permit", row=permit)


@pytest.mark.django_db
def test_numbers_restart_each_year_and_are_separate_per_municipality(
    olimpia: Municipality, votuporanga: Municipality
) -> None:
    with transaction.atomic():
        taken = [number_take(kind="permit", municipality=olimpia, year=2026) for _ in range(3)]
        taken.append(number_take(kind="permit", municipality=olimpia, year=2027))
        taken.append(number_take(kind="permit", municipality=votuporanga, year=2026))
    assert taken == [1, 2, 3, 1, 1]


@pytest.mark.django_db(transaction=True)
def test_taking_a_number_outside_a_transaction_is_a_programming_error(olimpia: Municipality) -> None:
    with pytest.raises(RuntimeError, match="transaction.atomic"):
        number_take(kind="permit", municipality=olimpia, year=2026)


@pytest.mark.django_db
def test_the_unique_constraint_is_the_last_line(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    with pytest.raises(IntegrityError), transaction.atomic():
        Permit.objects.create(
            municipality=permit.municipality,
            regime_id=permit.regime_id,
            year=permit.year,
            sequence=permit.sequence,
            number=permit.number,
            operator=permit.operator,
            vehicle=permit.vehicle,
            issued_on=AS_OF,
            valid_from=AS_OF,
        )


def _ready_applications(case: Case, count: int) -> list[int]:
    """Applications in analysis with an approved inspection, ready for permit_issue."""
    ids = []
    for _ in range(count):
        application = services.application_create(
            actor=None, operator=case.operator, kind="vehicle_permit", as_of=AS_OF, vehicle=case.vehicle
        )
        Application.objects.filter(pk=application.pk).update(state="approved", inspection_passed_on=AS_OF)
        ids.append(application.pk)
    return ids


def _issue_in_child(application_ids: list[int], barrier: multiprocessing.synchronize.Barrier) -> None:
    """Runs in a forked process with its own database connection."""
    barrier.wait()
    for pk in application_ids:
        with transaction.atomic():
            application = Application.objects.select_related("municipality", "operator", "vehicle").get(pk=pk)
            services.permit_issue(application=application, actor=None, as_of=AS_OF)
    connection.close()


@pytest.mark.django_db(transaction=True)
def test_eight_processes_issuing_at_once_get_every_number_exactly_once(olimpia_pf: Case) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: SQLite serializes every writer, there is no race to test")
    ids = _ready_applications(olimpia_pf, PROCESSES * PER_PROCESS)
    connections.close_all()  # each forked child must open its own connection
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES)
    workers = [
        context.Process(target=_issue_in_child, args=(ids[i::PROCESSES], barrier)) for i in range(PROCESSES)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0] * PROCESSES
    sequences = sorted(Permit.objects.filter(year=2026).values_list("sequence", flat=True))
    assert sequences == list(range(1, PROCESSES * PER_PROCESS + 1))  # no duplicate, no gap
    assert (
        Counter.objects.get(municipality=olimpia_pf.operator.municipality, kind="permit", year=2026).last
        == 40
    )


def test_an_issuance_reads_the_configuration_once_and_the_number_last(
    olimpia_pf: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    from apps.lawconfig import config as lawconfig
    from apps.tenancy import numbering

    application = to_analysis(olimpia_pf)
    services.application_require_inspection(application=application, actor=None, as_of=AS_OF)
    services.application_inspection_passed(
        application=application, performed_on=AS_OF, actor=None, as_of=AS_OF
    )
    application.refresh_from_db()
    assert application.inspection_passed_on == AS_OF  # so the calendar is asked too
    calls: list[str] = []
    read = lawconfig._current_config  # the stamp, and the rows only if they changed
    take = numbering.numbered_insert

    def config(*args: Any) -> Any:
        calls.append("config")
        return read(*args)

    def number(**kwargs: Any) -> int:
        calls.append("number")
        return take(**kwargs)

    monkeypatch.setattr(lawconfig, "_current_config", config)
    monkeypatch.setattr(services, "numbered_insert", number)
    with transaction.atomic():
        permit = services.permit_issue(application=application, actor=None, as_of=AS_OF)
    assert permit.number == "0001/2026"
    # Once for the validity and the inspection calendar together; the number after every question to the law.
    assert calls == ["config", "number"]
