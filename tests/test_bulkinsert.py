"""outorga.bulkinsert.insert_rows stores every value as the ORM would read it back: text with COPY's special
characters (tab, newline, carriage return, backslash, the \\N of a null) intact, None as NULL, a TextChoices
member as its text, aware datetimes at the same instant (on PostgreSQL psycopg formats the COPY rows; on
SQLite one executemany)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from apps.jobs.choices import MailStatus
from apps.jobs.models import OutboundMail
from outorga.bulkinsert import insert_rows

AWKWARD = ["tab\there", "line\nbreak\r\nand return", "back\\slash \\N \\t", "", "ação «citada» — ✓", "\\"]


@pytest.mark.django_db
def test_rows_come_back_as_written() -> None:
    at = dt.datetime(2026, 6, 1, 12, 30, 45, 123456, tzinfo=dt.UTC)
    names = (
        "recipient subject body reason status attempts next_attempt_at claimed_until claim_token last_error"
    )
    columns = (*names.split(), "created_at")
    rows = [
        ("a@example.com", f"s{n}", text, "test", MailStatus.PENDING, n, at, None, "", text, at)
        for n, text in enumerate(AWKWARD)
    ]
    with transaction.atomic():
        assert insert_rows(OutboundMail._meta.db_table, columns, iter(rows)) == len(AWKWARD)
    stored = list(OutboundMail.objects.order_by("attempts"))
    assert [m.body for m in stored] == AWKWARD
    assert [m.last_error for m in stored] == AWKWARD
    assert {(m.status, m.next_attempt_at, m.created_at, m.claimed_until) for m in stored} == {
        ("pending", at, at, None)
    }
    assert [m.municipality_id for m in stored] == [None] * len(AWKWARD)


@pytest.mark.django_db
def test_no_rows_insert_nothing() -> None:
    with transaction.atomic():
        assert insert_rows(OutboundMail._meta.db_table, ("subject",), iter(())) == 0
    assert not OutboundMail.objects.exists()
