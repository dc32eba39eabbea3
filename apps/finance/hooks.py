"""Registries other apps fill in from their AppConfig.ready(), so finance never imports them.

- Guide issued: a payment guide was issued; notifications tells the operator who owes it, in the same
  transaction. (Who reacts when a guide is *paid* is apps.finance.origins.)
    register_guide_issued(lambda guide: ...)
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
