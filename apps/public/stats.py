"""Counting lookups per day, municipality, route and result — never who asked.

One counter row per combination. These rows are statistics about the service, not acts about a person, so they
carry no audit event (an audit row per lookup would be the who-asked log we refuse to keep).

At school-start peaks every lookup of a town on a day would increment the same row: one write, one row lock and
one commit per lookup, serialized. So each server process adds up its lookups in memory and writes the sums at
most every PUBLIC_COUNT_FLUSH_SECONDS (default 10; 0 writes through at once), and when the process exits. A
process killed without warning loses at most that many seconds of counts, which statistics can bear.
"""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import threading
import time
from collections import Counter

from django.db import IntegrityError, transaction
from django.db.models import F, Sum

from apps.public import conf
from apps.public.models import LookupCount
from apps.tenancy.models import Municipality

logger = logging.getLogger(__name__)
Key = tuple[dt.date, int | None, str, str]

_pending: Counter[Key] = Counter()
_lock = threading.Lock()
_last_flush = [time.monotonic()]


def lookup_count_add(*, day: dt.date, municipality: Municipality | None, via: str, result: str) -> None:
    """Count one lookup; written to the database now or with the next flush (see the module docstring)."""
    with _lock:
        _pending[(day, municipality.pk if municipality else None, via, result)] += 1
        due = time.monotonic() - _last_flush[0] >= conf.count_flush_seconds()
    if due:
        lookup_counts_flush()


def lookup_counts_flush() -> None:
    """Write the sums counted in this process since the last flush, one UPDATE (or INSERT) per counter."""
    with _lock:
        batch = dict(_pending)
        _pending.clear()
        _last_flush[0] = time.monotonic()
    for (day, municipality_id, via, result), amount in batch.items():
        _add(day, municipality_id, via, result, amount)


def _add(day: dt.date, municipality_id: int | None, via: str, result: str, amount: int) -> None:
    """The first count of the day creates the row; a racing creator re-runs the increment."""
    where = {"day": day, "municipality_id": municipality_id, "via": via, "result": result}
    rows = LookupCount.objects.filter(**where)
    if rows.update(count=F("count") + amount):
        return
    try:
        with transaction.atomic():
            LookupCount.objects.create(
                day=day, municipality_id=municipality_id, via=via, result=result, count=amount
            )
    except IntegrityError:
        rows.update(count=F("count") + amount)


def _flush_at_exit() -> None:
    try:
        lookup_counts_flush()
    except (
        Exception
    ):  # the database may already be gone at shutdown: say what was lost, do not crash the exit
        logger.warning("Lookup counts of this process were not written at exit.", exc_info=True)


atexit.register(_flush_at_exit)


def lookup_totals(*, municipality: Municipality, since: dt.date, until: dt.date) -> dict[str, int]:
    """Lookups by result in a municipality over a period (both ends included)."""
    rows = (
        LookupCount.objects.filter(municipality=municipality, day__gte=since, day__lte=until)
        .values("result")
        .annotate(total=Sum("count"))
        .order_by()
    )
    return {row["result"]: int(row["total"]) for row in rows}
