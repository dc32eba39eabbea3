"""Permit issuance's round trips: a bounded number in all, and few while the counter row is locked.

Every issuance of a town and year waits for the counter row the one before it locked (tenancy.numbering), so
what runs between taking the number and committing sets the town's issuance rate: the law is asked and the rows
it needs are read before; after the number come only the permit's insert, its timeline line and its audit event.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.licensing import services
from apps.licensing.casebook import Case
from apps.licensing.models import Application
from apps.licensing.tests.conftest import AS_OF
from apps.tenancy.models import Counter

# A steady-state issuance (the year's counter exists, the holder already active, the application loaded with
# its town and holder), counted when written, the test's savepoint and its release included. PostgreSQL: 6
# queries, the chain's advisory lock, its head read and the permit's insert that takes the number in one; then
# only the audit event with the timeline line and the release (with DATABASE_SERVER_SIDE_BINDING the lock and
# the head read are two queries of their own, before the number). SQLite: 9, the head read before the number,
# the number and the permit apart, the timeline line and the event apart, no lock.
MAX_QUERIES = {"postgresql": 6, "sqlite": 9}
MAX_AFTER_THE_NUMBER = {"postgresql": 2, "sqlite": 4}


def _ready(case: Case) -> Application:
    application = services.application_create(
        actor=None, operator=case.operator, kind="vehicle_permit", as_of=AS_OF, vehicle=case.vehicle
    )
    Application.objects.filter(pk=application.pk).update(state="approved", inspection_passed_on=AS_OF)
    return Application.objects.select_related("municipality", "operator", "vehicle").get(pk=application.pk)


def _issue(application: Application) -> list[str]:
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        services.permit_issue(application=application, actor=None, as_of=AS_OF)
    return [query["sql"] for query in captured.captured_queries]


@pytest.mark.django_db
def test_an_issuance_makes_few_queries_and_fewer_after_taking_the_number(olimpia_pf: Case) -> None:
    _issue(_ready(olimpia_pf))  # the first of the year creates the counter and activates the holder
    statements = _issue(_ready(olimpia_pf))
    counter = f"UPDATE {connection.ops.quote_name(Counter._meta.db_table)}"
    taken = next(i for i, sql in enumerate(statements) if counter in sql)
    listing = "\n".join(sql[:160] for sql in statements)
    apart = 2 if connection.settings_dict["OPTIONS"].get("server_side_binding") is True else 0
    assert len(statements) <= MAX_QUERIES[connection.vendor] + apart, listing
    assert len(statements) - taken - 1 <= MAX_AFTER_THE_NUMBER[connection.vendor], listing
