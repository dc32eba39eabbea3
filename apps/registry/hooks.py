"""Registries other apps fill in from their AppConfig.ready(), so the registry never imports them.

- Holdings changed: a document was stored or a driver's record changed (a renewed CNH, a new insurance policy);
  licensing records the document-driven status of the permits concerned, in the same transaction.
    register_holdings_changed(lambda actor, owner, as_of: ...)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from apps.accounts.actors import Actor

HoldingsChanged = Callable[[Actor, Any, dt.date], None]

_CHANGED: list[HoldingsChanged] = []


def register_holdings_changed(handler: HoldingsChanged) -> None:
    if handler not in _CHANGED:
        _CHANGED.append(handler)


def holdings_changed(actor: Actor, owner: Any, as_of: dt.date) -> None:
    """``owner``: the Person, Company, Vehicle, Operator or Driver whose documents changed."""
    for handler in _CHANGED:
        handler(actor, owner, as_of)
