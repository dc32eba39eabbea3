"""Reads for the shell: which municipalities a user works in, and which one to show."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from apps.tenancy.models import Municipality, MunicipalityQuerySet
from apps.tenancy.querysets import get_object_for_user_or_404

CURRENT_MUNICIPALITY_SESSION_KEY = "current_municipality"


def municipalities_of(user: Any) -> MunicipalityQuerySet:
    return Municipality.objects.for_user(user, "view")


def municipality_for_request(request: HttpRequest, ibge_code: str) -> Municipality:
    """The municipality named in the URL, or 404 when the user holds no role there."""
    municipality = get_object_for_user_or_404(
        Municipality.objects.all(), request.user, "view", ibge_code=ibge_code
    )
    request.session[CURRENT_MUNICIPALITY_SESSION_KEY] = municipality.ibge_code
    return municipality


def default_municipality(request: HttpRequest) -> Municipality | None:
    """The last municipality the user opened, else the first they work in."""
    allowed = municipalities_of(request.user)
    remembered = request.session.get(CURRENT_MUNICIPALITY_SESSION_KEY)
    return allowed.filter(ibge_code=remembered).first() or allowed.first()
