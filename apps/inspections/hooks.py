"""Registries other apps fill in from their AppConfig.ready(), so inspections never imports them.

- Inspection scheduled / failed: notifications tells the vehicle's operator the date, or that the vehicle failed,
  in the same transaction.
    register_inspection_scheduled(lambda inspection: ...)
    register_inspection_failed(lambda inspection: ...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from apps.inspections.models import Inspection

InspectionHandler = Callable[["Inspection"], None]

_SCHEDULED: list[InspectionHandler] = []
_FAILED: list[InspectionHandler] = []


def register_inspection_scheduled(handler: InspectionHandler) -> None:
    if handler not in _SCHEDULED:
        _SCHEDULED.append(handler)


def inspection_scheduled(inspection: Inspection) -> None:
    for handler in _SCHEDULED:
        handler(inspection)


def register_inspection_failed(handler: InspectionHandler) -> None:
    if handler not in _FAILED:
        _FAILED.append(handler)


def inspection_failed(inspection: Inspection) -> None:
    for handler in _FAILED:
        handler(inspection)
