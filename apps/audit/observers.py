"""Who wants to know that a kind of row changed: apps above register from their AppConfig.ready(), the trail calls
them for every event it records (audit_record, audit_record_batch), so no write path can forget to.

    register_recorded("licensing.permit", lambda municipality_id: ...)

A handler runs inside the writer's transaction: it must only schedule work (transaction.on_commit), never do it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Recorded = Callable[[int | None], None]

_HANDLERS: dict[str, list[Recorded]] = {}


def register_recorded(object_type: str, handler: Recorded) -> None:
    handlers = _HANDLERS.setdefault(object_type, [])
    if handler not in handlers:
        handlers.append(handler)


def recorded(object_types: Iterable[str], municipality_id: int | None) -> None:
    for object_type in set(object_types):
        for handler in _HANDLERS.get(object_type, ()):
            handler(municipality_id)
