"""{{ run|changed:"permit" }}, {{ run|judged:"driver" }}: a run's totals as Brazilians write numbers."""

from __future__ import annotations

from django import template

from apps.reports.selectors import value_text
from apps.whatif.models import WhatIfRun

register = template.Library()


@register.filter
def changed(run: WhatIfRun, kind: str) -> str:
    return value_text(run.total(kind, "changed"), False)


@register.filter
def judged(run: WhatIfRun, kind: str) -> str:
    return value_text(run.total(kind, "judged"), False)
