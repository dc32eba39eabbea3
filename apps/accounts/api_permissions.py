"""Who may use the staff API (/api/v1/, session authentication): the municipality's staff, and superusers.

A portal account (permit holder, driver, monitor) is signed in with the same session cookie but is no staff
member: it gets 403 from every staff endpoint, not an empty list that tells it the endpoint exists and works.
The public verification API and the platform API set their own permission classes.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request

from apps.accounts.choices import UserKind

PORTAL_ACCOUNT_MESSAGE = "A API da prefeitura é só para servidores; use o portal."


class IsStaffAccount(IsAuthenticated):
    message = PORTAL_ACCOUNT_MESSAGE

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        user = request.user
        return bool(user.is_superuser or getattr(user, "kind", None) == UserKind.STAFF)
