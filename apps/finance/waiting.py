"""Guides waiting for a value are issued by themselves: when a value is entered (the legal configuration's
``configuration_changed`` hook, fired in the transaction that stores it) a background task tries the
municipality's queue again; the daily sweep retries every queue as a safety net (a task lost, a value dated
to take effect later).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from apps.accounts.actors import Actor
from apps.finance import services
from apps.finance.selectors import waiting_guides


def value_entered(actor: Actor, municipality: Any, as_of: dt.date) -> None:
    """configuration_changed handler: when the municipality has guides waiting, queue the task that issues them
    once the value is committed (a task run before the commit would not see the value; one queued by a
    transaction that rolls back must not run). Should the process die between the commit and the queueing, the
    daily sweep issues them."""
    if not waiting_guides(municipality).exists():
        return
    municipality_id = municipality.pk
    transaction.on_commit(lambda: _enqueue(municipality_id))


def _enqueue(municipality_id: int) -> None:
    from apps.finance.tasks import issue_waiting_guides

    issue_waiting_guides.enqueue(municipality_id)


def retry_waiting(as_of: dt.date) -> int:
    """Daily sweep step: try every queue again; returns how many guides were issued."""
    return services.waiting_guides_issue(actor=None, as_of=as_of)
