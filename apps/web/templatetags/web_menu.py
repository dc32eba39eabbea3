from __future__ import annotations

from typing import Any

from django import template

from apps.tenancy.models import Municipality
from apps.web.menu import MenuLink, menu_for

register = template.Library()


@register.simple_tag(takes_context=True)
def main_menu(context: template.Context) -> list[MenuLink]:
    """Entries for the `municipality` of the page being rendered (none on pages without one)."""
    municipality: Any = context.get("municipality")
    request = context.get("request")
    if not isinstance(municipality, Municipality) or request is None:
        return []
    return menu_for(request.user, municipality)
