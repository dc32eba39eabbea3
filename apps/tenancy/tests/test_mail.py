from __future__ import annotations

import smtplib
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.db import transaction

from apps.tenancy.mail import mail_after_commit

pytestmark = pytest.mark.django_db

CONTEXT = {
    "invitation": {"full_name": "Nova", "role_labels": ["Analista"], "expires_at": None},
    "inviter": "Otto",
    "municipality": {"name": "Olímpia", "uf": "SP"},
    "link": "http://x/convite/t/",
}


def _queue() -> None:
    with transaction.atomic():
        mail_after_commit(
            to="nova@example.gov.br",
            subject="Convite",
            template="tenancy/mail/staff_invitation.txt",
            context=CONTEXT,
        )


def test_a_failing_mail_server_is_logged_and_does_not_break_the_request(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise smtplib.SMTPServerDisconnected("down")

    monkeypatch.setattr("apps.tenancy.mail.send_mail", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        _queue()
    assert "Invitation mail could not be sent" in caplog.text


def test_the_mail_waits_for_the_commit(django_capture_on_commit_callbacks: Callable[..., Any]) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        _queue()
    assert mail.outbox == []
    callbacks[0]()
    assert mail.outbox[0].to == ["nova@example.gov.br"] and "http://x/convite/t/" in mail.outbox[0].body
