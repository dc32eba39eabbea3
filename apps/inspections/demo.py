"""Demo inspections, per municipality, through the services (audited like real ones), on the vehicles the
licensing demo registered: one scheduled for today for the application awaiting inspection, one passed, one
failed (with the cure deadline where the law gives one, and its pending re-inspection) and one overdue.

Runs after the licensing seeder (INSTALLED_APPS order). Idempotent: a municipality that already has
inspections is left as it is.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from apps.accounts.models import User
from apps.inspections.lawbridge import checklist
from apps.inspections.models import Inspection
from apps.inspections.services import ItemResult, inspection_record_result, inspection_schedule
from apps.licensing.models import Application
from apps.registry.models import Vehicle
from apps.tenancy.choices import Role
from apps.tenancy.demo import DEMO_MUNICIPALITIES, DemoLog, register_demo_seeder
from apps.tenancy.models import Municipality

# The first item of each checklist a demo failure marks as not in order, with the inspector's note.
FAILURES = {
    "olimpia_sp_escolar": ("seat_belts", "Dois cintos do banco traseiro sem trava."),
    "votuporanga_sp_escolar": ("capacity_notice", "Autorização com a lotação não afixada no interior."),
    "patrocinio_mg_aplicativo": ("recent_maintenance", "Sem comprovante de manutenção nos últimos 6 meses."),
    "sao_jose_dos_campos_sp_taxi": ("taximeter", "Lacre do taxímetro rompido; aferir de novo."),
}


@register_demo_seeder
def seed_inspections(log: DemoLog) -> None:
    today = timezone.localdate()
    for demo in DEMO_MUNICIPALITIES:
        municipality = Municipality.objects.filter(ibge_code=demo.ibge_code).first()
        if municipality is None or Inspection.objects.filter(municipality=municipality).exists():
            continue
        inspector = _inspector(municipality)
        before = Inspection.objects.count()
        _seed_municipality(municipality, inspector, today)
        log.created += Inspection.objects.count() - before


def _inspector(municipality: Municipality) -> User | None:
    return User.objects.filter(
        memberships__municipality=municipality, memberships__role=Role.INSPECTOR
    ).first()


def _free_vehicles(municipality: Municipality) -> list[Vehicle]:
    """Vehicles with an operator and no pending inspection, permits in force first."""
    rows = Vehicle.objects.filter(municipality=municipality, operator__isnull=False).exclude(
        inspections__result="pending"
    )
    with_permit = list(rows.filter(permits__state="active").distinct().order_by("pk"))
    return with_permit + [v for v in rows.order_by("pk") if v not in with_permit]


def _seed_municipality(municipality: Municipality, inspector: User | None, today: dt.date) -> None:
    _scheduled_for_application(municipality, inspector, today)
    vehicles = _free_vehicles(municipality)
    plans = (
        (today - dt.timedelta(days=20), "passed"),
        (today - dt.timedelta(days=3), "failed"),
        (today - dt.timedelta(days=9), "overdue"),
    )
    for vehicle, (day, outcome) in zip(vehicles, plans, strict=False):
        kind = "semestral" if municipality.regimes[0] == "votuporanga_sp_escolar" else "periodic"
        row = inspection_schedule(
            actor=None, vehicle=vehicle, scheduled_for=day, as_of=day, kind=kind, inspector=inspector
        )
        if outcome != "overdue":
            _record(row, day, failing=outcome == "failed")


def _scheduled_for_application(municipality: Municipality, inspector: User | None, today: dt.date) -> None:
    application = (
        Application.objects.filter(
            municipality=municipality, state="awaiting_inspection", vehicle__isnull=False
        )
        .exclude(vehicle__inspections__result="pending")
        .first()
    )
    if application is not None and application.vehicle is not None:
        inspection_schedule(
            actor=None,
            vehicle=application.vehicle,
            application=application,
            scheduled_for=today,
            as_of=today,
            inspector=inspector,
        )


def _record(row: Inspection, day: dt.date, *, failing: bool) -> Inspection:
    failed_code, note = FAILURES[row.regime_id]
    items = {
        item.code: ItemResult(
            ok=not (failing and item.code == failed_code),
            note=note if item.code == failed_code and failing else "",
        )
        for item in checklist(row.regime_id).items_for(row.checklist_kind)
    }
    return inspection_record_result(actor=None, inspection=row, performed_on=day, items=items, as_of=day)
