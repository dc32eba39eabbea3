"""The replay's boundary with the law engine: a stored decision's question asked again about its stored facts,
through apps.lawconfig.engine (replay.compare reads the answer against the stored one)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import lawcode
from apps.lawconfig import engine
from lawcode.config import Config


def ask_again(stored: Mapping[str, Any], facts: Any, *, as_of: dt.date, config: Config) -> lawcode.Decision:
    """``stored``'s question (of its regime) about ``facts`` as of ``as_of``, under ``config``."""
    return engine.evaluate_with(
        config=config, regime_id=stored["regime"], question=stored["question"], facts=facts, as_of=as_of
    )
