"""The daily sweep's notifications: on the right day, never twice (the sweep run twice, or again the next day),
each with the article the engine cited; a reminder's portal copy sends no second e-mail."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from apps.dueprocess.tests.helpers import open_case
from apps.jobs.models import OutboundMail
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.licensing.sweep import run_sweep, sweep_steps
from apps.notifications.choices import NotificationKind as K
from apps.notifications.models import Notification
from apps.notifications.sweep import notify_deadlines
from apps.registry.models import Document

from .test_events import documents_requested

pytestmark = pytest.mark.django_db
D = dt.date


def sweep(as_of: dt.date, *keys: str) -> None:
    """The licensing steps named and the notifications' step, as the scheduler runs them."""
    run_sweep(as_of, steps=[step for step in sweep_steps() if step.key in {*keys, "notifications"}])


def notified(kind: str) -> list[Notification]:
    return list(Notification.objects.filter(kind=kind))


def notify(as_of: dt.date) -> int:
    with transaction.atomic():
        return notify_deadlines(as_of)


def test_a_permit_reminder_appears_in_the_portal_once_and_the_reminder_alone_emails_it(
    alice_permit: Permit,
) -> None:
    Permit.objects.filter(pk=alice_permit.pk).update(valid_until=D(2026, 6, 30))
    sweep(D(2026, 4, 30), "permit_reminders")  # 61 days before: outside every reminder window
    assert notified(K.PERMIT_EXPIRING) == []
    for day in (D(2026, 5, 1), D(2026, 5, 1), D(2026, 5, 2)):  # 60 days before, the same day again, the next
        sweep(day, "permit_reminders")
    [row] = notified(K.PERMIT_EXPIRING)
    assert row.due_on == D(2026, 6, 30) and f"Alvará {alice_permit.number} vence em 30/06/2026" == row.title
    assert row.with_reminder and row.mail is None and row.delivery == "Enviado com o lembrete de vencimento"
    assert row.link == "/portal/requerimentos/novo/"
    assert OutboundMail.objects.filter(reason="licensing.reminder.permit").count() == 1
    assert not OutboundMail.objects.filter(reason="notifications.notice").exists()


def test_a_drivers_document_is_told_to_the_driver_not_as_the_holders(marcos: Any) -> None:
    person = marcos.driver.person
    document = Document.objects.filter(person=person, valid_until__isnull=False).first()
    assert document is not None
    Document.objects.filter(pk=document.pk).update(valid_until=D(2026, 5, 7))
    sweep(D(2026, 4, 30), "document_reminders")
    [row] = notified(K.DOCUMENT_EXPIRING)
    assert row.person == person and row.operator == marcos.operator and row.recipient == person.email
    assert "vale até 07/05/2026" in row.body and row.article and row.link == "/portal/documentos/"


def test_a_cure_window_ending_is_told_seven_days_before_and_once(patrocinio_case: Case) -> None:
    documents_requested(patrocinio_case)  # art. 7: until 25/03/2026
    assert notify(D(2026, 3, 17)) == 0
    assert notify(D(2026, 3, 18)) == 1
    assert notify(D(2026, 3, 18)) == 0 and notify(D(2026, 3, 19)) == 0
    [row] = notified(K.CURE_ENDING)
    assert "termina em 25/03/2026" in row.title and "art. 7º" in row.article


def test_guides_due_overdue_inspections_and_a_suspension_from_start_to_end(
    olimpia: Any,
    agent_olimpia: Any,
    alice_case: Case,
    alice_permit: Permit,
    make_guide: Callable[..., Any],
) -> None:
    guide = make_guide(alice_case, alice_permit)
    assert notify(guide.due_on - dt.timedelta(days=8)) == 0
    notify(guide.due_on - dt.timedelta(days=7))
    [due] = notified(K.GUIDE_DUE)
    assert due.article == guide.legal_basis and due.key == f"guide:{guide.pk}:due:{guide.due_on}"

    Permit.objects.filter(pk=alice_permit.pk).update(
        inspection_due_on=D(2026, 3, 11), inspection_overdue=True
    )
    notify(D(2026, 3, 12))
    [overdue] = notified(K.INSPECTION_OVERDUE)
    assert "deveria ter sido feita até 11/03/2026" in overdue.body

    case = open_case(
        olimpia, agent_olimpia, code="OLI-24-III", plate=alice_case.vehicle.plate, on=D(2026, 3, 12)
    )
    notify(D(2026, 3, 12))
    [started] = notified(K.SUSPENSION_STARTED)
    assert "até 10/04/2026" in started.title and case.number in started.body and "art. 24" in started.article
    notify(D(2026, 4, 10))  # its last day: not ended yet
    assert notified(K.SUSPENSION_ENDED) == []
    notify(D(2026, 4, 11))
    notify(D(2026, 4, 12))
    [ended] = notified(K.SUSPENSION_ENDED)
    assert "terminou em 10/04/2026" in ended.body
    assert Notification.objects.filter(kind=K.SUSPENSION_STARTED).count() == 1
