"""Registries other apps fill in from their AppConfig.ready(), so enforcement never imports them.

- Timeline sources: due process adds its deadlines (judgment, payment…) and items to the case picture.
    register_timeline_source(lambda case, as_of: [TimelineItem(...), ...])
- History provider: due process knows the operator's final sanctions (recidivism); the printed auto uses it to
  show the fine the engine would impose today.
    register_history_provider(lambda operator, as_of: (PriorSanction(...), ...))
- Case opened: due process applies the penalties the law makes immediate (suspension in flagrante, apreensão)
  when the auto is registered, in the same transaction.
    register_case_opened(lambda case, actor, as_of: ...)
- Notice sent: a notice went out or its receipt (ciência) was recorded; notifications tells the operator, in the
  same transaction.
    register_notice_sent(lambda notice, as_of: ...)
- Electronic consent: the portal knows whether the holder opted in to the electronic notice (domicílio
  eletrônico) and with which terms; enforcement refuses the electronic channel without it.
    register_electronic_consent(lambda operator: {"id": …, "accepted_at": …, "account": …} or None)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from apps.accounts.actors import Actor

if TYPE_CHECKING:
    from apps.enforcement.lawbridge import History
    from apps.enforcement.models import InfractionCase, Notice


@dataclass(frozen=True)
class TimelineItem:
    """One point of the case picture: an event (``deadline`` False) or a deadline with its legal basis."""

    on: dt.date
    label: str
    deadline: bool = False
    done_on: dt.date | None = None
    cite: str = ""
    detail: str = ""


TimelineSource = Callable[["InfractionCase", dt.date], list[TimelineItem]]
HistoryProvider = Callable[[Any, dt.date], "History"]
CaseOpened = Callable[["InfractionCase", Actor, dt.date], None]
NoticeSent = Callable[["Notice", dt.date], None]

_TIMELINE_SOURCES: list[TimelineSource] = []
_HISTORY: list[HistoryProvider] = []
_OPENED: list[CaseOpened] = []
_NOTICE_SENT: list[NoticeSent] = []
ElectronicConsent = Callable[[Any], "dict[str, str] | None"]
_CONSENT: list[ElectronicConsent] = []


def register_timeline_source(source: TimelineSource) -> None:
    if source not in _TIMELINE_SOURCES:
        _TIMELINE_SOURCES.append(source)


def timeline_sources() -> tuple[TimelineSource, ...]:
    return tuple(_TIMELINE_SOURCES)


def register_history_provider(provider: HistoryProvider) -> None:
    """Only one provider makes sense; a second registration replaces the first (tests may swap it)."""
    _HISTORY[:] = [provider]


def operator_history(operator: Any, as_of: dt.date) -> History:
    """The operator's final sanctions as the provider knows them; none when nobody registered one."""
    return _HISTORY[0](operator, as_of) if _HISTORY else ()


def register_case_opened(handler: CaseOpened) -> None:
    if handler not in _OPENED:
        _OPENED.append(handler)


def case_opened(case: InfractionCase, actor: Actor, as_of: dt.date) -> None:
    for handler in _OPENED:
        handler(case, actor, as_of)


def register_notice_sent(handler: NoticeSent) -> None:
    if handler not in _NOTICE_SENT:
        _NOTICE_SENT.append(handler)


def notice_sent(notice: Notice, as_of: dt.date) -> None:
    for handler in _NOTICE_SENT:
        handler(notice, as_of)


def register_electronic_consent(provider: ElectronicConsent) -> None:
    """Only one provider makes sense; a second registration replaces the first (tests may swap it)."""
    _CONSENT[:] = [provider]


def electronic_consent(operator: Any) -> dict[str, str] | None:
    """The holder's standing opt-in to the electronic notice (its proof), or None (never opted in, revoked,
    or nobody registered a provider)."""
    if operator is None or not _CONSENT:
        return None
    return _CONSENT[0](operator)
