"""Inspections' step of the daily sweep: calendar inspections the law says were missed, with their penalty.

For every vehicle in service under a regime whose law sets an inspection calendar, the engine judges the current
due month as of the sweep's day (with the vehicle's in-service date and its last passed inspection). Where it
answers «overdue» with a penalty (Votuporanga art. 4º § 5º: 135 UFM), a MissedInspection is kept for an agent to
confirm — the auto is not drawn up by the machine, but no one has to notice the miss either. One row per vehicle
and due month (unique), each with its audit event in the step's transaction, so a second run adds nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import lawcode
from apps.inspections import calendar as cal
from apps.inspections.models import MissedInspection
from apps.licensing.models import Permit
from apps.licensing.sweep import audit_rows
from apps.tenancy.models import Municipality
from lawcode import Decision, Status


class MissingCatalogEntryError(RuntimeError):
    """The law attaches a penalty to a missed inspection but the regime's catalog has no infraction citing it."""


def find_missed_inspections(as_of: dt.date) -> int:
    found = 0
    for municipality in Municipality.objects.order_by("pk"):
        for regime_id in municipality.regimes or ():
            if cal.answers_calendar(regime_id):
                found += _find_in(municipality, regime_id, as_of)
    return found


def _find_in(municipality: Municipality, regime_id: str, as_of: dt.date) -> int:
    ctx = cal.CalendarContext(municipality, regime_id, as_of)
    ctx.vehicles = cal.service_vehicles(Permit.objects.all(), municipality, regime_id)
    known = set(
        MissedInspection.objects.filter(municipality=municipality).values_list("vehicle_id", "due_month")
    )
    rows = []
    for item in ctx.vehicles:
        decision = cal.cycle_answer(ctx, item)
        if decision is None or not _missed_with_penalty(decision):
            continue
        if (item.vehicle.pk, decision.result["cycle_month"]) not in known:
            rows.append(_row(municipality, regime_id, item, decision, as_of))
    MissedInspection.objects.bulk_create(rows)
    saved = MissedInspection.objects.filter(
        municipality=municipality, found_on=as_of, vehicle_id__in=[row.vehicle_id for row in rows]
    ).values(
        "pk", "municipality_id", "vehicle_id", "permit_id", "due_month", "infraction_code", "penalty", "basis"
    )
    return audit_rows(
        saved,  # type: ignore[arg-type]  # the values() rows are plain dicts; mypy sees a TypedDict
        action="missedinspection.found",
        object_type="inspections.missedinspection",
        before=_nothing,
        after=_found,
    )


def _missed_with_penalty(decision: Decision) -> bool:
    return (
        decision.result.get("status") == "overdue" and decision.result.get("missed_penalty_ufm") is not None
    )


def _row(
    municipality: Municipality, regime_id: str, item: cal.ServiceVehicle, decision: Decision, as_of: dt.date
) -> MissedInspection:
    finding = next(x for x in decision.findings if x.status == Status.NOT_MET)
    assert item.permit_id is not None  # service_vehicles sets it
    return MissedInspection(
        municipality=municipality,
        regime_id=regime_id,
        vehicle=item.vehicle,
        permit_id=item.permit_id,
        due_month=decision.result["cycle_month"],
        found_on=as_of,
        infraction_code=_infraction_code(regime_id, decision, finding.citations, as_of),
        penalty=f"{decision.result['missed_penalty_ufm']} UFM",
        message=finding.message[:300],
        basis="; ".join(citation.render() for citation in finding.citations)[:300],
        decision=decision.to_dict(),
    )


def _infraction_code(regime_id: str, decision: Decision, citations: Any, as_of: dt.date) -> str:
    """The catalog infraction whose dispositivo is the one the missed-inspection finding cites (art. 4º § 5º)."""
    catalog = lawcode.get_regime(regime_id).catalog.values()
    cited = [citation.dispositivo for citation in citations]
    for dispositivo in reversed(cited):  # the most specific last: «art. 4º, § 4º; art. 4º, § 5º»
        for entry in catalog:
            if entry.cite == dispositivo:
                return entry.code
    raise MissingCatalogEntryError(
        f"{regime_id}: no catalog infraction cites any of {cited} (missed inspection, {as_of})"
    )


def _nothing(row: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def _found(row: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in ("pk", "municipality_id")} | {
        "state": "pending"
    }
