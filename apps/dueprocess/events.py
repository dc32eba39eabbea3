"""Registries other apps fill in from their AppConfig.ready(), so due process never imports them (what due
process registers with *other* apps is apps.dueprocess.hooks).

- Judgment recorded: an appeal or defence was judged; notifications tells the operator the outcome and the next
  deadline, in the same transaction.
    register_judgment_recorded(lambda judgment, as_of: ...)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apps.dueprocess.models import Judgment

JudgmentRecorded = Callable[["Judgment", dt.date], None]

_JUDGED: list[JudgmentRecorded] = []


def register_judgment_recorded(handler: JudgmentRecorded) -> None:
    if handler not in _JUDGED:
        _JUDGED.append(handler)


def judgment_recorded(judgment: Judgment, as_of: dt.date) -> None:
    for handler in _JUDGED:
        handler(judgment, as_of)
