"""Reads of the what-if pages: runs and flipped records through the permission gate, the chart's section."""

from __future__ import annotations

from typing import Any

from apps.reports.selectors import Section, Series
from apps.whatif.choices import SubjectKind
from apps.whatif.models import WhatIfOutcome, WhatIfRun

KIND_LABELS = {SubjectKind.PERMIT: "Autorizações", SubjectKind.DRIVER: "Condutores"}


def runs_for(user: Any, municipality: Any) -> Any:
    return (
        WhatIfRun.objects.for_user(user, "view")
        .filter(municipality=municipality)
        .select_related("requested_by")
    )


def outcomes_of(run: WhatIfRun) -> Any:
    return WhatIfOutcome.objects.filter(run=run).select_related("permit", "driver")


def transitions_section(run: WhatIfRun) -> Section:
    """One bar group per transition (Deferido → Indeferido…), one series per kind of record."""
    kinds = [kind for kind in KIND_LABELS if kind in run.totals]
    transitions = sorted({t for kind in kinds for t in run.totals[kind].get("transitions", {})})
    series = tuple(
        Series(
            KIND_LABELS[kind],
            tuple(run.totals[kind].get("transitions", {}).get(t, 0) for t in transitions),
        )
        for kind in kinds
    )
    return Section(
        "transitions",
        "Registros que mudam de resultado",
        tuple(transitions),
        series,
        category_header="Mudança de resultado",
    )
