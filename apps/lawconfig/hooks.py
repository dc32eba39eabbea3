"""Registries other apps fill in from their AppConfig.ready(), so lawconfig never imports them.

- Configuration changed: the municipality's legal configuration (an interpretation, a parameter, a fiscal unit,
  a closure) was written; what other apps stored from the law's answers under the old configuration is re-judged
  in the same transaction (the registry re-judges its age-limited documents).
    register_configuration_changed(lambda actor, municipality, as_of: ...)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from apps.accounts.actors import Actor

ConfigurationChanged = Callable[[Actor, Any, dt.date], None]

_CHANGED: list[ConfigurationChanged] = []


def register_configuration_changed(handler: ConfigurationChanged) -> None:
    if handler not in _CHANGED:
        _CHANGED.append(handler)


def configuration_changed(actor: Actor, municipality: Any, as_of: dt.date) -> None:
    for handler in _CHANGED:
        handler(actor, municipality, as_of)
