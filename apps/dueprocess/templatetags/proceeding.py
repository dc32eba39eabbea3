"""{{ appeal|instance_name }}: the instance as the regime's law calls it (its procedure.yaml label), not the generic
model label."""

from __future__ import annotations

from typing import Any

from django import template

from apps.dueprocess.procedure import instance_label

register = template.Library()


@register.filter
def instance_name(appeal: Any) -> str:
    return instance_label(appeal.case.regime_id, appeal.instance)
