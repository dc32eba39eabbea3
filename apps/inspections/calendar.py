"""The inspection calendar of the vehicles in service, as the law sets it (engine question
``inspection_calendar``): Votuporanga's semestral months by final plate digit (art. 4º § 4º) and Patrocínio's
yearly inspection (art. 9). For a month: which vehicles are due and which are overdue; for a year: counts per
month (due, done, overdue) for the 12-month picture. Olímpia's law sets no calendar (the page says so).

The engine decides each status: a vehicle's last passed inspection up to the month's end is the fact, and the
month is judged on the first day after it (overdue or done) or today (while it runs).
"""

from __future__ import annotations

import calendar as stdlib_calendar
import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

import lawcode
from apps.inspections.choices import InspectionResult
from apps.inspections.models import Inspection
from apps.licensing.choices import PERMIT_IN_FORCE_STATES, PermitKind
from apps.licensing.lawbridge import ask
from apps.licensing.models import Permit
from apps.registry import lawbridge as registry_lawbridge
from apps.registry.models import Vehicle
from apps.tenancy.models import Municipality
from lawcode import Decision

MONTHS_PT = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez")
DONE, DUE, OVERDUE, UPCOMING = "done", "due", "overdue", "upcoming"
STATUS_PT = {DONE: "Vistoriado", DUE: "A vistoriar neste mês", OVERDUE: "Atrasado", UPCOMING: "Previsto"}


@dataclass(frozen=True)
class ServiceVehicle:
    """A vehicle with a regular permit in force, and every date it passed an inspection."""

    vehicle: Vehicle
    permit_number: str
    in_service_from: dt.date
    passed_on: tuple[dt.date, ...]
    permit_id: int | None = None

    def last_passed(self, until: dt.date) -> dt.date | None:
        earlier = [day for day in self.passed_on if day <= until]
        return max(earlier) if earlier else None


@dataclass(frozen=True)
class VehicleDue:
    vehicle: Vehicle
    permit_number: str
    status: str
    message: str
    basis: str
    last_inspection: dt.date | None

    @property
    def status_pt(self) -> str:
        return STATUS_PT[self.status]


@dataclass
class MonthCount:
    year: int
    month: int
    due: int = 0
    done: int = 0
    overdue: int = 0

    @property
    def label(self) -> str:
        return MONTHS_PT[self.month - 1]


@dataclass
class CalendarContext:
    municipality: Municipality
    regime_id: str
    today: dt.date
    vehicles: list[ServiceVehicle] = field(default_factory=list)
    answers: dict[tuple[str, dt.date, dt.date | None], Decision | None] = field(default_factory=dict)


def month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, stdlib_calendar.monthrange(year, month)[1])


def vehicles_in_service(municipality: Municipality, regime_id: str, user: Any) -> list[ServiceVehicle]:
    """Vehicles (readable by ``user``) holding a regular permit in force under the regime, with passed dates."""
    return service_vehicles(Permit.objects.for_user(user, "view"), municipality, regime_id)


def service_vehicles(
    permits: QuerySet[Permit], municipality: Municipality, regime_id: str
) -> list[ServiceVehicle]:
    """Vehicles of ``permits`` (already gated by the caller, or all of them for the sweep) holding a regular
    permit in force under the regime, with every date they passed an inspection."""
    permits = permits.filter(
        municipality=municipality,
        regime_id=regime_id,
        state__in=PERMIT_IN_FORCE_STATES,
        kind=PermitKind.REGULAR,
    )
    rows = list(permits.select_related("vehicle", "application").order_by("vehicle__plate"))
    passed: dict[int, set[dt.date]] = defaultdict(set)
    done = Inspection.objects.filter(
        vehicle_id__in=[p.vehicle_id for p in rows], result=InspectionResult.PASSED
    )
    for vehicle_id, performed_on in done.values_list("vehicle_id", "performed_on"):
        if performed_on is not None:  # always set on a passed inspection (check constraint)
            passed[vehicle_id].add(performed_on)
    for permit in rows:
        if permit.application is not None and permit.application.inspection_passed_on:
            passed[permit.vehicle_id].add(permit.application.inspection_passed_on)
    unique = {p.vehicle_id: p for p in rows}
    since = in_service_since(list(unique.values()))
    return [
        ServiceVehicle(p.vehicle, p.number, since[p.pk], tuple(sorted(passed[p.vehicle_id])), permit_id=p.pk)
        for p in unique.values()
    ]


def in_service_since(permits: list[Permit]) -> dict[int, dt.date]:
    """Per permit: the day its vehicle entered service, following the permits it renewed for the same vehicle
    (a renewal keeps the vehicle in service; a substitution puts a new vehicle in service with the new permit).
    One query for every earlier permit of these vehicles."""
    earlier = Permit.objects.filter(vehicle_id__in={p.vehicle_id for p in permits}).values_list(
        "pk", "vehicle_id", "replaces_id", "valid_from"
    )
    rows = {pk: (vehicle_id, replaces_id, valid_from) for pk, vehicle_id, replaces_id, valid_from in earlier}
    since = {}
    for permit in permits:
        start, previous = permit.valid_from, permit.replaces_id
        while previous in rows and rows[previous][0] == permit.vehicle_id:
            start, previous = min(start, rows[previous][2]), rows[previous][1]
        since[permit.pk] = start
    return since


def answers_calendar(regime_id: str) -> bool:
    """Whether the regime's law sets an inspection calendar at all (Olímpia's has none)."""
    return "inspection_calendar" in lawcode.get_regime(regime_id).questions()


def _calendar(
    ctx: CalendarContext, item: ServiceVehicle, as_of: dt.date, last: dt.date | None
) -> Decision | None:
    """The engine's answer, asked once per (plate, day, last inspection) in a page: a year has 12 months."""
    key = (item.vehicle.plate, as_of, last)
    if key not in ctx.answers:
        ctx.answers[key] = _ask_calendar(ctx, item, as_of, last)
    return ctx.answers[key]


def _ask_calendar(
    ctx: CalendarContext, item: ServiceVehicle, as_of: dt.date, last: dt.date | None
) -> Decision | None:
    facts = registry_lawbridge.inspection_facts(
        item.vehicle.plate,
        regime_id=ctx.regime_id,
        year=as_of.year,
        last_inspection=last,
        in_service_from=item.in_service_from,
    )
    try:
        return ask(
            municipality=ctx.municipality,
            regime_id=ctx.regime_id,
            question="inspection_calendar",
            facts=facts,
            as_of=as_of,
            field="calendar",
        )
    except ValidationError:
        return None  # the regime needs a fact this vehicle lacks (Patrocínio: no inspection yet)


def cycle_answer(ctx: CalendarContext, item: ServiceVehicle) -> Decision | None:
    """The engine's answer for the vehicle's current due month on ``ctx.today`` (the sweep's question)."""
    return _calendar(ctx, item, ctx.today, item.last_passed(ctx.today))


def month_status(ctx: CalendarContext, item: ServiceVehicle, year: int, month: int) -> VehicleDue | None:
    """The vehicle's status for the month, or None when the month is not one of its due months."""
    first = dt.date(year, month, 1)
    if month_end(year, month) < item.in_service_from:
        return None  # not in service yet that month
    # The due months (by plate digit, or a year after the inspection before this month) do not depend on the
    # day asked: one question per vehicle and prior inspection, on today.
    probe = _calendar(ctx, item, ctx.today, item.last_passed(first - dt.timedelta(days=1)))
    if probe is None:
        return None
    if "due_months" in probe.result:
        return _semestral(ctx, item, probe, first)
    return _annual(ctx, item, probe, first)


def _semestral(
    ctx: CalendarContext, item: ServiceVehicle, probe: Decision, first: dt.date
) -> VehicleDue | None:
    if first.month not in probe.result["due_months"]:
        return None
    end = month_end(first.year, first.month)
    if ctx.today < first:
        return _due(item, UPCOMING, probe, "status", None)
    judged_on = ctx.today if ctx.today <= end else end + dt.timedelta(days=1)
    last = item.last_passed(min(end, ctx.today))
    decision = _calendar(ctx, item, judged_on, last)
    if decision is None:
        return None
    if decision.result["status"] == "not_in_service":
        return None  # the law owes nothing for a month before the vehicle entered service
    status = {"ok": DONE, "due": DUE, "overdue": OVERDUE}[str(decision.result["status"])]
    return _due(item, status, decision, "inspection_status", last)


def _annual(ctx: CalendarContext, item: ServiceVehicle, probe: Decision, first: dt.date) -> VehicleDue | None:
    """Yearly inspection: due in the month its ``next_due`` falls in (counted from the last one before it)."""
    next_due = probe.result.get("next_due")
    if not isinstance(next_due, dt.date) or (next_due.year, next_due.month) != (first.year, first.month):
        return None
    end = month_end(first.year, first.month)
    if any(first <= day <= end for day in item.passed_on):
        return _due(item, DONE, probe, "annual_inspection", item.last_passed(end))
    status = OVERDUE if ctx.today > next_due else (DUE if ctx.today >= first else UPCOMING)
    return _due(item, status, probe, "annual_inspection", item.last_passed(first - dt.timedelta(days=1)))


def _due(
    item: ServiceVehicle, status: str, decision: Decision, code: str, last: dt.date | None
) -> VehicleDue:
    finding = next((x for x in decision.findings if x.code == code), decision.findings[-1])
    basis = "; ".join(citation.render() for citation in finding.citations)
    return VehicleDue(item.vehicle, item.permit_number, status, finding.message, basis, last)


def month_schedule(ctx: CalendarContext, year: int, month: int) -> list[VehicleDue]:
    found = (month_status(ctx, item, year, month) for item in ctx.vehicles)
    return [due for due in found if due is not None]


def year_picture(ctx: CalendarContext, year: int) -> list[MonthCount]:
    counts = [MonthCount(year, month) for month in range(1, 13)]
    for count in counts:
        for due in month_schedule(ctx, year, count.month):
            count.due += 1
            count.done += due.status == DONE
            count.overdue += due.status == OVERDUE
    return counts
