"""The operator's history of final decisions, as the engine's PriorSanction tuples (recidivism, the ladder).

Only final sanctions with a penalty count, decided on or before ``as_of``; annulled ones (appeal granted) and
those still open to appeal never do. The operator answers for its drivers (Olímpia art. 28), so every case of
the operator counts, whoever drove.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from apps.dueprocess.choices import SanctionState
from apps.dueprocess.models import Sanction
from lawcode.facts import PriorSanction


def _prior(row: Sanction) -> PriorSanction:
    assert row.decided_final_on is not None  # final sanctions always carry it
    kinds = tuple(dict.fromkeys(str(p.get("kind")) for p in row.penalties if p.get("kind")))
    return PriorSanction(
        infraction_code=row.case.infraction_code,
        infraction_date=timezone.localtime(row.case.occurred_at).date(),
        final_on=row.decided_final_on,
        penalties=kinds,
        suspension_days=row.suspension_days,
    )


def operator_history(
    operator: Any, as_of: dt.date, exclude_case: int | None = None
) -> tuple[PriorSanction, ...]:
    rows = Sanction.objects.filter(
        operator=operator, state=SanctionState.FINAL, outcome="penalty", decided_final_on__lte=as_of
    ).select_related("case")
    if exclude_case is not None:
        rows = rows.exclude(case_id=exclude_case)
    return tuple(_prior(row) for row in rows.order_by("decided_final_on", "pk"))
