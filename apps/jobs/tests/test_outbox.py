"""The outbox: e-mails stored with the change that causes them, sent after commit, retried, given up visibly."""

from __future__ import annotations

import datetime as dt
import smtplib
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apps.audit.models import AuditEvent
from apps.jobs.choices import MailStatus
from apps.jobs.models import OutboundMail
from apps.jobs.services import RETRY_BACKOFF_MINUTES, MailDraft, mail_queue, outbox_deliver

pytestmark = pytest.mark.django_db

DRAFT = MailDraft("maria@example.com", "Alvará 0001/2026 vence em 10/03/2027", "Peça a renovação.")


class BrokenConnection:
    """A mail server that accepts the connection and refuses every message."""

    def open(self) -> None: ...

    def close(self) -> None: ...

    def send_messages(self, messages: Any) -> int:
        raise smtplib.SMTPRecipientsRefused({"maria@example.com": (550, b"no such user")})


def queue(*drafts: MailDraft) -> None:
    with transaction.atomic():
        mail_queue(drafts=drafts, reason="test.reminder")


@pytest.mark.django_db(transaction=True)
def test_it_refuses_to_queue_outside_the_change_transaction() -> None:
    with pytest.raises(RuntimeError, match="inside the transaction"):
        mail_queue(drafts=[DRAFT], reason="test")


def test_a_queued_mail_waits_for_the_commit_and_then_wakes_the_worker(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        queue(DRAFT)
        assert DBTaskResult.objects.count() == 0
    assert len(callbacks) == 1
    assert DBTaskResult.objects.get().task_path.endswith("deliver_outbox")
    assert mail.outbox == []


def test_a_rolled_back_change_sends_nothing() -> None:
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        mail_queue(drafts=[DRAFT], reason="test")
        1 / 0  # noqa: B018  (the change that caused the e-mail fails)
    assert OutboundMail.objects.count() == 0


def test_delivery_sends_each_mail_once_and_audits_it() -> None:
    queue(DRAFT, MailDraft("", "sem endereço", "não vai para a fila"))
    first, second = outbox_deliver(), outbox_deliver()
    assert (first.sent, second.sent) == (1, 0)
    assert [m.to for m in mail.outbox] == [["maria@example.com"]]
    stored = OutboundMail.objects.get()
    assert stored.status == MailStatus.SENT and stored.sent_at is not None
    assert AuditEvent.objects.filter(action="jobs.mail_delivery").count() == 1


def test_a_refused_mail_is_retried_with_backoff_then_given_up() -> None:
    queue(DRAFT)
    now = timezone.now()
    with mock.patch("apps.jobs.services.get_connection", return_value=BrokenConnection()):
        for attempt, delay in enumerate(RETRY_BACKOFF_MINUTES, start=1):
            assert outbox_deliver(now=now).retried == 1
            stored = OutboundMail.objects.get()
            assert stored.attempts == attempt and "SMTPRecipientsRefused" in stored.last_error
            assert stored.next_attempt_at == now + dt.timedelta(minutes=delay)
            assert outbox_deliver(now=now).retried == 0  # not due again yet
            now = stored.next_attempt_at
        assert outbox_deliver(now=now).failed == 1
    assert OutboundMail.objects.get().status == MailStatus.FAILED
    assert outbox_deliver(now=now + dt.timedelta(days=1)).sent == 0


def test_a_mail_claimed_by_another_worker_is_not_sent_twice() -> None:
    queue(DRAFT)
    now = timezone.now()
    OutboundMail.objects.update(claimed_until=now + dt.timedelta(minutes=5), claim_token="other-worker")
    assert outbox_deliver(now=now).sent == 0
    # The other worker died: its claim expires and the mail goes out.
    assert outbox_deliver(now=now + dt.timedelta(minutes=6)).sent == 1
