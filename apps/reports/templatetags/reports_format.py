"""{{ value|report_value:section.money }}: R$ 1.234,56 for money, 1.234 for counts."""

from __future__ import annotations

from typing import Any

from django import template

from apps.reports.charts import value_text

register = template.Library()


@register.filter
def report_value(value: Any, money: bool) -> str:
    return value_text(value, bool(money))
