"""Who reacts when a guide is paid: a registry from origin type to a function, with no signals.

finance never imports licensing or enforcement; they register here from their AppConfig.ready():

    from apps.finance.origins import register_payment_handler

    def application_fee_paid(*, guide, payment, actor, as_of) -> None:
        application_require_inspection(...)        # moves the workflow on

    register_payment_handler("application", application_fee_paid)

The handler runs inside payment_register's transaction: if it raises (the application can no longer move on),
the payment is not stored either, and the finance user sees the handler's message.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from django.core.exceptions import ImproperlyConfigured

from apps.accounts.actors import Actor
from apps.finance.choices import OriginType

if TYPE_CHECKING:
    from apps.finance.models import Payment, PaymentGuide, WaitingGuide


class PaymentHandler(Protocol):
    def __call__(self, *, guide: PaymentGuide, payment: Payment, actor: Actor, as_of: dt.date) -> None: ...


_HANDLERS: dict[str, PaymentHandler] = {}


def register_payment_handler(origin_type: str, handler: PaymentHandler) -> PaymentHandler:
    """Register the handler for an origin type; a second, different handler for the same type is an error."""
    if origin_type not in OriginType.values:
        raise ImproperlyConfigured(f"Unknown guide origin type {origin_type!r}; known: {OriginType.values}")
    current = _HANDLERS.get(origin_type)
    if current is not None and _key(current) != _key(handler):
        raise ImproperlyConfigured(
            f"A payment handler for {origin_type!r} is already registered: {_key(current)}"
        )
    _HANDLERS[origin_type] = handler
    return handler


@contextmanager
def payment_handlers_replaced(handlers: Mapping[str, PaymentHandler]) -> Iterator[None]:
    """For tests: exactly ``handlers`` are registered inside the block, the real ones again after it."""
    saved = dict(_HANDLERS)
    _HANDLERS.clear()
    _HANDLERS.update(handlers)
    try:
        yield
    finally:
        _HANDLERS.clear()
        _HANDLERS.update(saved)


def payment_handler(origin_type: str) -> PaymentHandler | None:
    return _HANDLERS.get(origin_type)


class WaitingIssuer(Protocol):
    """Issues the guide of a waiting entry the way its origin issues it (its due date, its timeline note);
    returns None when the value is still missing (the entry keeps waiting)."""

    def __call__(self, *, waiting: WaitingGuide, actor: Actor, as_of: dt.date) -> PaymentGuide | None: ...


_ISSUERS: dict[str, WaitingIssuer] = {}


def register_waiting_issuer(origin_type: str, issuer: WaitingIssuer) -> WaitingIssuer:
    """Register who issues the waiting guides of an origin type (dueprocess: the fine's guide)."""
    if origin_type not in OriginType.values:
        raise ImproperlyConfigured(f"Unknown guide origin type {origin_type!r}; known: {OriginType.values}")
    _ISSUERS[origin_type] = issuer
    return issuer


def waiting_issuer(origin_type: str) -> WaitingIssuer | None:
    return _ISSUERS.get(origin_type)


def _key(handler: PaymentHandler) -> str:
    return f"{getattr(handler, '__module__', '')}.{getattr(handler, '__qualname__', repr(handler))}"
