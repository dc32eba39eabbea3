"""{% if user|is_deployment_admin %}: the installation's administrator sees the set-up entry in the menu."""

from __future__ import annotations

from typing import Any

from django import template

from apps.tenancy.models import is_deployment_admin as _is_deployment_admin

register = template.Library()


@register.filter
def is_deployment_admin(user: Any) -> bool:
    return _is_deployment_admin(user)
