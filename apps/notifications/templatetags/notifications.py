"""{% load notifications %}: the portal menu's unread count (``unread_notifications``) and the staff link to
what was sent to a holder (``staff_notifications_url``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from apps.notifications.selectors import unread_count
from apps.tenancy.querysets import user_can

register = template.Library()


@register.simple_tag
def unread_notifications(account: Any) -> int:
    return unread_count(account) if account is not None else 0


@register.simple_tag
def staff_notifications_url(user: Any, operator: Any) -> str:
    """The staff list of what was sent to this holder, or "" for a user whose roles may not see it."""
    if not user_can(user, operator.municipality_id, "notifications.notification", "view"):
        return ""
    url = reverse("notifications:staff-list", args=[operator.municipality.ibge_code])
    return f"{url}?autorizatario={operator.pk}"
