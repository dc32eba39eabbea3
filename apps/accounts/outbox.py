"""Where accounts hands an e-mail to the project's outbox (apps.jobs), which sits above accounts in the layers.

apps.jobs registers its queue at startup (JobsConfig.ready); accounts calls `mail_enqueue` inside the
transaction of the change that causes the mail, and the mail leaves from the worker, never from the request
(a password-reset request then takes the same time whether or not the account exists: issue 28).
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured

# (recipient, subject, body, reason) -> None, stored in the caller's transaction.
Enqueue = Callable[[str, str, str, str], None]
_enqueue: list[Enqueue] = []


def register(enqueue: Enqueue) -> None:
    _enqueue[:] = [enqueue]


def mail_enqueue(*, recipient: str, subject: str, body: str, reason: str) -> None:
    if not _enqueue:
        raise ImproperlyConfigured("No e-mail outbox registered: apps.jobs must be in INSTALLED_APPS.")
    _enqueue[0](recipient, subject, body, reason)
