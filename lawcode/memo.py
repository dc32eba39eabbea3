"""Per-run memory of a bulk evaluation: values computed once and reused while the same facts objects recur.

A bulk what-if evaluates 300,000 vehicles that share a few thousand operators. Keys name facts objects by
identity (``id``); the memo holds a strong reference to those objects, so an id cannot be reused by another
object while its entry lives. Memory is bounded: past ``limit`` entries the memo starts afresh (a later hit
only recomputes).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

DEFAULT_LIMIT = 20_000


class Memo:
    """A bounded map from a key to a value, keeping alive the objects whose ids the key holds."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        self._entries: dict[Hashable, tuple[tuple[Any, ...], Any]] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> Any | None:
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        return entry[1]

    def put(self, key: Hashable, anchors: tuple[Any, ...], value: Any) -> None:
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[key] = (anchors, value)

    def __len__(self) -> int:
        return len(self._entries)
