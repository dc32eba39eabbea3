"""The municipality's configuration moved to apps.lawconfig.config (same code, renamed so its history follows);
this module becomes the gateway to the engine's decisions in the next commit."""

from apps.lawconfig.config import (
    RegimeChoiceError,
    calendar_for,
    citation_text,
    config_for,
    configs_remembered,
    evaluate,
    evaluate_each,
    regime_for,
)

__all__ = [
    "RegimeChoiceError",
    "calendar_for",
    "citation_text",
    "config_for",
    "configs_remembered",
    "evaluate",
    "evaluate_each",
    "regime_for",
]
