"""Registries other apps fill in from their AppConfig.ready(), so licensing never imports them.

- Permit replaced: when a renewal or a substitution issues a new permit, due process carries the running and
  queued suspensions of the old one to it (inside the same transaction).
    register_permit_replaced(lambda old, new, actor, as_of: ...)
- Permit notes: lines shown with the permit's status on its page (a precautionary suspension, an apreensão).
    register_permit_notes(lambda permit, as_of: ["Veículo apreendido em 12/03/2026 …"])
- Cure opened: the analyst asked the applicant for documents (the cure deadline runs); notifications tells the
  applicant, in the same transaction.
    register_cure_opened(lambda application: ...)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from apps.accounts.actors import Actor

if TYPE_CHECKING:
    from apps.licensing.models import Application, Permit

PermitReplaced = Callable[["Permit", "Permit", Actor, dt.date], None]
PermitNotes = Callable[["Permit", dt.date], list[str]]
CureOpened = Callable[["Application"], None]

_REPLACED: list[PermitReplaced] = []
_NOTES: list[PermitNotes] = []
_CURE_OPENED: list[CureOpened] = []


def register_permit_replaced(handler: PermitReplaced) -> None:
    if handler not in _REPLACED:
        _REPLACED.append(handler)


def permit_replaced(old: Permit, new: Permit, actor: Actor, as_of: dt.date) -> None:
    for handler in _REPLACED:
        handler(old, new, actor, as_of)


def register_permit_notes(provider: PermitNotes) -> None:
    if provider not in _NOTES:
        _NOTES.append(provider)


def permit_notes(permit: Permit, as_of: dt.date) -> list[str]:
    return [line for provider in _NOTES for line in provider(permit, as_of)]


def register_cure_opened(handler: CureOpened) -> None:
    if handler not in _CURE_OPENED:
        _CURE_OPENED.append(handler)


def cure_opened(application: Application) -> None:
    for handler in _CURE_OPENED:
        handler(application)
