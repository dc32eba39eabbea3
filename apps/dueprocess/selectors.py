"""Reads shared by the screens and the API."""

from __future__ import annotations

from typing import Any

from apps.dueprocess.models import Appeal, Effect, Regularization, Sanction
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
