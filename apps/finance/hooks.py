"""Registries other apps fill in from their AppConfig.ready(), so finance never imports them.

- Guide issued: a payment guide was issued; notifications tells the operator who owes it, in the same
  transaction. (Who reacts when a guide is *paid* is apps.finance.origins.)
    register_guide_issued(lambda guide: ...)
- Guide changed: a guide was cancelled or revised (new value or due date), in the same transaction; the charge
  at the PSP follows it (apps.finance.services_pix.pix_charge_revise).
    register_guide_changed(lambda guide: ...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apps.finance.models import PaymentGuide

GuideIssued = Callable[["PaymentGuide"], None]

_ISSUED: list[GuideIssued] = []


def register_guide_issued(handler: GuideIssued) -> None:
    if handler not in _ISSUED:
        _ISSUED.append(handler)


def guide_issued(guide: PaymentGuide) -> None:
    for handler in _ISSUED:
        handler(guide)


GuideChanged = Callable[["PaymentGuide"], None]

_CHANGED: list[GuideChanged] = []


def register_guide_changed(handler: GuideChanged) -> None:
    if handler not in _CHANGED:
        _CHANGED.append(handler)


def guide_changed(guide: PaymentGuide) -> None:
    for handler in _CHANGED:
        handler(guide)
