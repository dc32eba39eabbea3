"""The one way a staff view opens the municipality named in its URL (``/<ibge_code>/...``).

It sits on the single gate (querysets.get_object_for_user_or_404 and user_can), so every view answers an
unknown IBGE code and a municipality the user may not act on the same way: 404 "Registro não encontrado.",
never 403, so nobody can probe which towns use Outorga or which roles exist there.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.http import Http404

from apps.tenancy.models import Municipality
from apps.tenancy.querysets import get_object_for_user_or_404, user_can

NOT_FOUND = "Registro não encontrado."


class _HasUser(Protocol):
    """A Django HttpRequest or a DRF Request: all the gate needs is who is asking."""

    @property
    def user(self) -> Any: ...


def municipality_for(
    request: _HasUser, ibge_code: str, *, model_label: str | None = None, action: str = "view"
) -> Municipality:
    """The municipality with this IBGE code if the user may do ``action`` there; Http404 otherwise.

    With ``model_label`` the action is on that model's rows (e.g. ``"registry.vehicle"``, ``"change"``);
    without it, on the municipality itself (``"view"``: the user holds any role there).
    """
    if model_label is None:
        return get_object_for_user_or_404(
            Municipality.objects.all(), request.user, action, ibge_code=ibge_code
        )
    municipality = get_object_for_user_or_404(
        Municipality.objects.all(), request.user, "view", ibge_code=ibge_code
    )
    if not user_can(request.user, municipality.pk, model_label, action):
        raise Http404(NOT_FOUND)
    return municipality
