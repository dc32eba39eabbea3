"""{{ event|action_pt }} and {{ event|detail_lines }}: audit events as people read them (apps.audit.labels)."""

from __future__ import annotations

import json

from django import template

from apps.audit import labels
from apps.audit.models import AuditEvent

register = template.Library()


@register.filter
def action_pt(event: AuditEvent) -> str:
    return labels.action_label(event.action, event.object_type)


@register.filter
def object_pt(event: AuditEvent) -> str:
    return labels.object_text(event.object_type, event.object_id, event.after)


@register.filter
def detail_lines(event: AuditEvent) -> list[labels.DetailLine]:
    return labels.detail_lines(event.object_type, event.before, event.after)


@register.filter
def as_json(value: object) -> str:
    """The stored JSON exactly (what the hash covers), for auditors who recompute it."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)
