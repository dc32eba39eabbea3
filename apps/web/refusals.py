"""A refusal: Django's ValidationError keyed by the form field it is about, with a Portuguese message.

Services raise it for bad input and for legal refusals (the message names the article); forms attach it to that
field, the API answers it as 400 with the field's name. One shape everywhere, so no caller has to guess.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError


def refuse(field: str, message: str, code: str = "invalid") -> ValidationError:
    return ValidationError({field: ValidationError(message, code=code)})
