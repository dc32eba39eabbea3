"""The request id of the HTTP request being served, readable by services without passing it around."""

from __future__ import annotations

import contextvars
import re
import uuid

_request_id: contextvars.ContextVar[str] = contextvars.ContextVar("outorga_request_id", default="")

# Accept a proxy-supplied id only if it cannot smuggle anything into logs or headers.
_WELL_FORMED = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


def new_request_id(incoming: str | None) -> str:
    if incoming and _WELL_FORMED.match(incoming):
        return incoming
    return str(uuid.uuid4())


def current_request_id() -> str:
    return _request_id.get()


def set_request_id(value: str) -> contextvars.Token[str]:
    return _request_id.set(value)


def reset_request_id(token: contextvars.Token[str]) -> None:
    _request_id.reset(token)
