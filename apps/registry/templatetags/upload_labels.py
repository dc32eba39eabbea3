"""{{ upload.content_type|file_kind }}: file formats as people name them («PDF», «imagem JPEG»)."""

from __future__ import annotations

from django import template

from apps.registry.uploads import kind_label

register = template.Library()


@register.filter
def file_kind(content_type: str) -> str:
    return kind_label(content_type)
