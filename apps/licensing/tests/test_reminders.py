"""The reminders of a window in one INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING: the unique key, not the
step's WHERE, is what keeps a reminder from being recorded (and mailed) twice."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.db.models import Value

from apps.licensing.casebook import Case
from apps.licensing.models import Permit, Reminder
from apps.licensing.reminders import reminders_insert
from apps.licensing.tests.conftest import issue_permit

pytestmark = pytest.mark.django_db


def test_a_second_insert_over_the_same_rows_returns_nothing(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    assert permit.valid_until is not None
    # Unlike the sweep's WHERE, this one does not skip what was reminded: only the unique key stops a repeat.
    due = Permit.objects.filter(pk=permit.pk).annotate(recipient=Value("joao@example.com"))
    as_of = permit.valid_until - dt.timedelta(days=7)
    with transaction.atomic():
        first = list(reminders_insert(target="permit", due={7: due}, as_of=as_of))
        second = list(reminders_insert(target="permit", due={7: due}, as_of=as_of))
    assert first == [
        {
            "pk": permit.pk,
            "municipality_id": permit.municipality_id,
            "days": 7,
            "valid_until": permit.valid_until,
            "recipient": "joao@example.com",
            "number": permit.number,
            "plate": permit.vehicle.plate,
        }
    ]
    assert second == []
    reminder = Reminder.objects.get()
    assert (reminder.days_before, reminder.expires_on, reminder.sent_on) == (7, permit.valid_until, as_of)
