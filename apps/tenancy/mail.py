"""Invitation mail, sent only after the transaction that created the invitation commits."""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)


def mail_after_commit(*, to: str, subject: str, template: str, context: dict[str, Any]) -> None:
    """Queue a plain-text mail for when the caller's transaction commits (never for a rolled-back one).

    A mail server that fails does not undo the invitation, which is already stored: the failure is logged
    and the administrator can send the invitation again from the team screen.
    """
    body = render_to_string(template, context)

    def send() -> None:
        try:
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
        except (smtplib.SMTPException, OSError):
            logger.exception("Invitation mail could not be sent (subject %r)", subject)

    transaction.on_commit(send)
