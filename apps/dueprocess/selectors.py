"""Reads shared by the screens and the API."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from apps.dueprocess.choices import EffectState
from apps.dueprocess.models import Appeal, Effect, Regularization, Sanction
from apps.dueprocess.services.effects import SUSPENDING
from apps.enforcement.models import InfractionCase


def case_appeals(case: InfractionCase) -> list[Appeal]:
    return list(
        Appeal.objects.filter(case=case).select_related("judgment", "filed_by_staff").order_by("instance")
    )


def case_sanction(case: InfractionCase) -> Sanction | None:
    return Sanction.objects.filter(case=case).select_related("guide", "ban").first()


def sanction_findings(sanction: Sanction) -> list[dict[str, Any]]:
    """The engine's findings with their citations rendered, for the «por quê» of the page."""
    return decision_findings(sanction.decision)


def decision_findings(decision: dict[str, Any]) -> list[dict[str, Any]]:
    """A stored Decision's findings (``Decision.to_dict()``), each with its citations rendered."""
    return [
        {
            "message": f.get("message", ""),
            "status": f.get("status", ""),
            "cites": "; ".join(c.get("text", "") for c in f.get("citations", [])),
        }
        for f in decision.get("findings", [])
    ]


def case_effects(case: InfractionCase) -> list[Effect]:
    """Every effect of the case's penalties, applied or not (with the reason), oldest first."""
    return list(
        Effect.objects.filter(case=case).select_related("permit", "vehicle").order_by("created_at", "pk")
    )


def case_regularization(case: InfractionCase) -> Regularization | None:
    return Regularization.objects.filter(case=case).select_related("uploaded_by").first()


@dataclass(frozen=True)
class SuspensionPeriod:
    """The period a case's suspension runs in fact: the one applied to the permit, queued after the suspension
    already running when the two overlap (consecutive suspensions add up), else the one the decision gives."""

    days: int | None
    start: dt.date
    end: dt.date
    after: dt.date | None  # the last day of the earlier suspension this one follows, when queued
    state: str  # EffectState, or "" when the decision's period was never applied to a permit
    permit_number: str
    lifted_on: dt.date | None = None

    @property
    def text(self) -> str:
        days = f"{self.days} dias, " if self.days else ""
        queued = (
            f" (em sequência à suspensão anterior, que vai até {self.after:%d/%m/%Y})" if self.after else ""
        )
        lifted = f"; levantada em {self.lifted_on:%d/%m/%Y}" if self.lifted_on else ""
        return f"{days}de {self.start:%d/%m/%Y} a {self.end:%d/%m/%Y}{queued}{lifted}"


def sanction_suspension(sanction: Sanction) -> SuspensionPeriod | None:
    """The one answer to «when is this penalty's suspension served», for every screen that states it."""
    shown = (EffectState.APPLIED, EffectState.QUEUED, EffectState.LIFTED)
    row = (
        Effect.objects.filter(sanction=sanction, mechanism__in=SUSPENDING, state__in=shown)
        .exclude(starts_on=None)
        .exclude(ends_on=None)
        .select_related("permit")
        .order_by("created_at", "pk")
        .first()
    )
    if row is not None and row.starts_on is not None and row.ends_on is not None:
        decided = sanction.suspension_start
        after = row.starts_on - dt.timedelta(days=1) if decided and row.starts_on > decided else None
        number = row.permit.number if row.permit is not None else ""
        lifted = row.ended_on if row.state == EffectState.LIFTED else None
        return SuspensionPeriod(row.days, row.starts_on, row.ends_on, after, row.state, number, lifted)
    if sanction.suspension_start and sanction.suspension_end:
        return SuspensionPeriod(
            sanction.suspension_days, sanction.suspension_start, sanction.suspension_end, None, "", ""
        )
    return None
