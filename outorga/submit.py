"""The one way a staff form page runs its service: bind, validate, call, and show a refusal on the form.

A view reads::

    form = PaymentForm(request.POST or None)
    if done := submit(request, form, lambda: services.payment_register(...), success="Pagamento registrado."):
        return redirect("finance:guide_detail", ibge_code, done.result.pk)
    return render(...)  # a GET, an invalid form or a refusal: the form shows its errors

Services refuse with apps.web.refusals.refuse (a ValidationError keyed by field): the refusal lands on that
field, or at the top of the form when the form has no such field, so the message always names what to fix.

It belongs to the project, not to an app: the form pages of every app use it, tenancy's included, and tenancy
sits below web in the layers (docs/architecture.md), so it could not reach it in web.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest

T = TypeVar("T")


@dataclass(frozen=True)
class Done(Generic[T]):
    """The service ran; ``result`` is what it returned (truthy even when the service returns None)."""

    result: T


def attach_refusal(form: forms.Form, refusal: ValidationError) -> None:
    """Put a service refusal on the field it names, or on the whole form when the form has no such field."""
    if not hasattr(refusal, "error_dict"):
        form.add_error(None, refusal.messages)
        return
    for field, errors in refusal.message_dict.items():
        form.add_error(field if field in form.fields else None, errors)


def submit(
    request: HttpRequest,
    form: forms.Form,
    call: Callable[[], T],
    *,
    success: str | Callable[[T], str] | None = None,
) -> Done[T] | None:
    """On a POST with a valid form, run ``call`` (it may read form.cleaned_data).

    Done: the service ran and the ``success`` message (text, or built from the result) is queued; the caller
    redirects. None: nothing was posted, the form is invalid, or the service refused (now on the form); the
    caller renders the page again.
    """
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        result = call()
    except ValidationError as refusal:
        attach_refusal(form, refusal)
        return None
    if success is not None:
        messages.success(request, success if isinstance(success, str) else success(result))
    return Done(result)
