"""{% load notifications %}{% unread_notifications account as unread %}: the portal menu's unread count."""

from __future__ import annotations

from typing import Any

from django import template

from apps.notifications.selectors import unread_count

register = template.Library()


@register.simple_tag
def unread_notifications(account: Any) -> int:
    return unread_count(account) if account is not None else 0
