"""{{ value|report_value:section }}: R$ 1.234,56 for money, 12,50 for fiscal-unit quantities, 1.234 for counts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template

from apps.reports.deadlines import AtRisk
from apps.reports.selectors import Section

register = template.Library()


@register.filter
def report_value(value: Any, section: Section) -> str:
    return section.text(value)


@register.filter
def deadline_status(item: AtRisk, as_of: dt.date) -> str:
    """«vence em 3 dia(s)», «vence hoje», «vencido há 2 dia(s)»."""
    return item.status(as_of)
