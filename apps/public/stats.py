"""Counting lookups per day, municipality, route and result — never who asked.

One counter row per combination, incremented in place. These rows are statistics about the service, not acts
about a person, so they carry no audit event (an audit row per lookup would be the who-asked log we refuse to
keep).
"""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.db.models import F, Sum

from apps.public.models import LookupCount
from apps.tenancy.models import Municipality


def lookup_count_add(*, day: dt.date, municipality: Municipality | None, via: str, result: str) -> None:
    """+1 on the counter; the first lookup of the day creates it (a racing creator re-runs the increment)."""
    rows = LookupCount.objects.filter(day=day, municipality=municipality, via=via, result=result)
    with transaction.atomic():
        _without_waiting_for_disk()
        if rows.update(count=F("count") + 1):
            return
    try:
        with transaction.atomic():
            LookupCount.objects.create(day=day, municipality=municipality, via=via, result=result, count=1)
    except IntegrityError:
        rows.update(count=F("count") + 1)


def _without_waiting_for_disk() -> None:
    """Every lookup of a town on a day increments the same row, so its lock is held until the commit returns.

    On PostgreSQL the commit need not wait for the WAL flush here: a crash could lose the last fraction of a
    second of counts, which statistics can bear, and the row lock is released at once instead of after an
    fsync — at school-start peaks that wait serialized every lookup. SQLite runs writers one at a time anyway.
    """
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def lookup_totals(*, municipality: Municipality, since: dt.date, until: dt.date) -> dict[str, int]:
    """Lookups by result in a municipality over a period (both ends included)."""
    rows = (
        LookupCount.objects.filter(municipality=municipality, day__gte=since, day__lte=until)
        .values("result").annotate(total=Sum("count")).order_by()
    )  # fmt: skip
    return {row["result"]: int(row["total"]) for row in rows}
