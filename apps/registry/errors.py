"""Refusals of the registry: Django ValidationError keyed by form field, messages in Portuguese."""

from __future__ import annotations

from django.core.exceptions import ValidationError


def refuse(field: str, message: str, code: str = "invalid") -> ValidationError:
    """A refusal naming the form field it is about (forms attach it to that field)."""
    return ValidationError({field: ValidationError(message, code=code)})
