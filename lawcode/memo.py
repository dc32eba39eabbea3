"""Per-run memory of a bulk evaluation: values computed once and reused while the same facts objects recur.

A bulk what-if evaluates 300,000 vehicles that share a few thousand operators. Keys name facts objects by
identity (``id``); the memo holds a strong reference to those objects, so an id cannot be reused by another
object while its entry lives. Memory is bounded: past ``limit`` entries the memo starts afresh (a later hit
only recomputes).

A *brief* entry is about one subject only (the subject typed, its checks: reused when the same subject is
asked again under the reform, right after): only the last ``brief_limit`` of them are kept. Kept longer,
their objects would outlive the garbage collector's young generations and make every full collection of a
long run walk them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from typing import Any

DEFAULT_LIMIT = 20_000
DEFAULT_BRIEF_LIMIT = 16  # a few subjects' worth: each subject's law and reform follow each other


class Memo:
    """A bounded map from a key to a value, keeping alive the objects whose ids the key holds."""

    def __init__(self, limit: int = DEFAULT_LIMIT, brief_limit: int = DEFAULT_BRIEF_LIMIT) -> None:
        self.limit = limit
        self.brief_limit = brief_limit
        self._entries: dict[Hashable, tuple[tuple[Any, ...], Any]] = {}
        self._brief: deque[Hashable] = deque()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Any | None:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        return entry[1]

    def put(self, key: Hashable, anchors: tuple[Any, ...], value: Any, *, brief: bool = False) -> None:
        if len(self._entries) >= self.limit:
            self._entries.clear()
            self._brief.clear()
        self._entries[key] = (anchors, value)
        if brief:
            self._brief.append(key)
            if len(self._brief) > self.brief_limit:
                self._entries.pop(self._brief.popleft(), None)

    def __len__(self) -> int:
        return len(self._entries)
