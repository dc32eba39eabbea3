"""Inspection services: schedule within the legal deadline, record every item, fail → cure window and a
re-inspection, pass → the application moves on; every refusal names the field and stores nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from apps.audit.models import AuditEvent
from apps.inspections import services
from apps.inspections.models import Inspection
from apps.inspections.tests.conftest import (
    AS_OF,
    all_items,
    awaiting_inspection,
    patrocinio_fee_paid,
    scheduled,
)
from apps.licensing import services as licensing
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.licensing.sweep import run_sweep
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _fields(error: ValidationError) -> dict[str, list[str]]:
    return error.message_dict


def test_it_schedules_a_patrocinio_inspection_within_five_days_of_the_fee(
    patrocinio_case: Case, patrocinio: Municipality
) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    row = services.inspection_schedule(
        actor=None,
        vehicle=patrocinio_case.vehicle,
        application=application,
        scheduled_for=dt.date(2026, 3, 13),
        as_of=AS_OF,
    )
    # art. 8: 5 days after paying on 10/03; 15/03 is a Sunday, so the engine moves it to Monday 16/03
    assert row.deadline == dt.date(2026, 3, 16)
    assert "art. 8º" in row.deadline_basis
    assert row.kind == "initial" and row.application == application
    assert row.decision["scheduling"]["question"] == "inspection_scheduling"


def test_it_refuses_a_patrocinio_date_after_the_legal_deadline_citing_art_8(
    patrocinio_case: Case, patrocinio: Municipality
) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    with pytest.raises(ValidationError) as caught:
        services.inspection_schedule(
            actor=None,
            vehicle=patrocinio_case.vehicle,
            application=application,
            scheduled_for=dt.date(2026, 3, 17),
            as_of=AS_OF,
        )
    message = _fields(caught.value)["scheduled_for"][0]
    assert "16/03/2026" in message and "art. 8º" in message
    assert not Inspection.objects.exists()


def test_it_refuses_an_application_not_awaiting_inspection(olimpia_case: Case) -> None:
    from apps.licensing import services as licensing

    application = licensing.application_create(
        actor=None,
        operator=olimpia_case.operator,
        kind="vehicle_permit",
        as_of=AS_OF,
        vehicle=olimpia_case.vehicle,
    )
    with pytest.raises(ValidationError) as caught:
        services.inspection_schedule(
            actor=None,
            vehicle=olimpia_case.vehicle,
            application=application,
            scheduled_for=AS_OF,
            as_of=AS_OF,
        )
    assert "Aguardando vistoria" in _fields(caught.value)["application"][0]
    assert not Inspection.objects.exists()


def test_it_refuses_a_second_pending_inspection_and_a_past_date(olimpia_case: Case) -> None:
    scheduled(olimpia_case)
    with pytest.raises(ValidationError) as caught:
        scheduled(olimpia_case)
    assert "já há vistoria agendada" in _fields(caught.value)["vehicle"][0]
    with pytest.raises(ValidationError) as caught:
        scheduled(olimpia_case, scheduled_for=AS_OF - dt.timedelta(days=1))
    assert "scheduled_for" in _fields(caught.value)
    assert Inspection.objects.count() == 1


def test_it_refuses_an_inspector_of_another_municipality(
    olimpia_case: Case, inspector_patrocinio: object
) -> None:
    with pytest.raises(ValidationError) as caught:
        scheduled(olimpia_case, inspector=inspector_patrocinio)
    assert "não é vistoriador" in _fields(caught.value)["inspector"][0]


def test_a_result_without_every_item_is_refused_and_nothing_is_stored(olimpia_case: Case) -> None:
    row = scheduled(olimpia_case)
    items = all_items(row)
    items.pop("tachograph")
    events = AuditEvent.objects.count()
    with pytest.raises(ValidationError) as caught:
        services.inspection_record_result(
            actor=None, inspection=row, performed_on=AS_OF, items=items, as_of=AS_OF
        )
    assert "Tacógrafo" in _fields(caught.value)["items"][0]
    row.refresh_from_db()
    assert row.result == "pending" and row.items == [] and AuditEvent.objects.count() == events


def test_an_item_outside_the_checklist_is_refused(olimpia_case: Case) -> None:
    row = scheduled(olimpia_case)
    items = {**all_items(row), "rocket_boosters": services.ItemResult(ok=True)}
    with pytest.raises(ValidationError) as caught:
        services.inspection_record_result(
            actor=None, inspection=row, performed_on=AS_OF, items=items, as_of=AS_OF
        )
    assert "rocket_boosters" in _fields(caught.value)["items"][0]


def test_a_performed_on_in_the_future_is_refused(olimpia_case: Case) -> None:
    row = scheduled(olimpia_case)
    with pytest.raises(ValidationError) as caught:
        services.inspection_record_result(
            actor=None,
            inspection=row,
            performed_on=AS_OF + dt.timedelta(days=1),
            items=all_items(row),
            as_of=AS_OF,
        )
    assert "futuro" in _fields(caught.value)["performed_on"][0]
    row.refresh_from_db()
    assert row.result == "pending"


def test_the_initial_olimpia_checklist_leaves_out_the_permit_number(olimpia_case: Case) -> None:
    row = scheduled(olimpia_case, kind="initial")
    row = services.inspection_record_result(
        actor=None, inspection=row, performed_on=AS_OF, items=all_items(row), as_of=AS_OF
    )
    codes = [item["code"] for item in row.items]
    assert "permit_number_doors" not in codes and "tachograph" in codes
    tachograph = next(item for item in row.items if item["code"] == "tachograph")
    assert "Lei 5.171/2025 (Olímpia), art. 13, IV" in tachograph["cites"]


def test_a_failed_patrocinio_inspection_gets_15_days_and_a_linked_reinspection(
    patrocinio_case: Case, patrocinio: Municipality
) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    row = services.inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    row = services.inspection_record_result(
        actor=None,
        inspection=row,
        performed_on=AS_OF,
        as_of=AS_OF,
        items=all_items(row, failing=("recent_maintenance",)),
    )
    assert row.result == "failed"
    assert row.cure_deadline == dt.date(2026, 3, 25)  # art. 9 § 3: 15 days from 10/03
    assert "art. 9º, § 3º" in row.decision["cure_basis"]
    follow_up = Inspection.objects.get(previous=row)
    assert follow_up.kind == "reinspection" and follow_up.result == "pending"
    assert follow_up.deadline == row.cure_deadline and follow_up.application == application
    application.refresh_from_db()
    assert application.state == "awaiting_inspection"
    actions = set(
        AuditEvent.objects.filter(object_type="inspections.inspection").values_list("action", flat=True)
    )
    assert {"inspection.scheduled", "inspection.failed"} <= actions


def test_passing_the_reinspection_moves_the_application_back_to_analysis(
    patrocinio_case: Case, patrocinio: Municipality
) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    first = services.inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    services.inspection_record_result(
        actor=None,
        inspection=first,
        performed_on=AS_OF,
        as_of=AS_OF,
        items=all_items(first, failing=("platform_logo",)),
    )
    follow_up = Inspection.objects.get(previous=first)
    later = AS_OF + dt.timedelta(days=5)
    with pytest.raises(ValidationError):  # before the failed one it redoes
        services.inspection_record_result(
            actor=None,
            inspection=follow_up,
            performed_on=AS_OF - dt.timedelta(days=1),
            items=all_items(follow_up),
            as_of=later,
        )
    follow_up = services.inspection_record_result(
        actor=None, inspection=follow_up, performed_on=later, items=all_items(follow_up), as_of=later
    )
    assert follow_up.result == "passed" and follow_up.cure_deadline is None
    application.refresh_from_db()
    assert application.state == "in_analysis" and application.inspection_passed_on == later
    event = application.events.get(kind="inspection_passed")
    assert event.data["inspection_id"] == follow_up.pk


def test_olimpia_has_no_legal_cure_window_but_still_a_reinspection(olimpia_case: Case) -> None:
    application = awaiting_inspection(olimpia_case)
    row = services.inspection_schedule(
        actor=None, vehicle=olimpia_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    assert row.deadline is None
    row = services.inspection_record_result(
        actor=None,
        inspection=row,
        performed_on=AS_OF,
        as_of=AS_OF,
        items=all_items(row, failing=("tachograph",)),
    )
    assert row.result == "failed" and row.cure_deadline is None
    follow_up = Inspection.objects.get(previous=row)
    # Not the failure's day (10/03/2026, a Tuesday): the municipality's next business day.
    assert follow_up.scheduled_for == dt.date(2026, 3, 11) and follow_up.deadline is None


def test_a_recorded_inspection_cannot_be_recorded_again(olimpia_case: Case) -> None:
    row = scheduled(olimpia_case)
    services.inspection_record_result(
        actor=None, inspection=row, performed_on=AS_OF, items=all_items(row), as_of=AS_OF
    )
    with pytest.raises(ValidationError) as caught:
        services.inspection_record_result(
            actor=None, inspection=row, performed_on=AS_OF, items=all_items(row), as_of=AS_OF
        )
    assert "já foi registrada" in _fields(caught.value)["result"][0]


def test_reschedule_keeps_the_legal_deadline(patrocinio_case: Case, patrocinio: Municipality) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    row = services.inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    with pytest.raises(ValidationError) as caught:
        services.inspection_reschedule(
            actor=None, inspection=row, scheduled_for=dt.date(2026, 3, 20), as_of=AS_OF
        )
    assert "art. 8º" in _fields(caught.value)["scheduled_for"][0]
    row = services.inspection_reschedule(
        actor=None, inspection=row, scheduled_for=dt.date(2026, 3, 16), as_of=AS_OF
    )
    assert row.scheduled_for == dt.date(2026, 3, 16)


def test_votuporanga_temporary_vehicle_is_checked_for_the_magnetic_stripe(votuporanga_case: Case) -> None:
    row = scheduled(votuporanga_case, kind="temporary")
    codes = set(all_items(row))
    assert "temporary_magnetic_stripe" in codes and "im_number_body" not in codes


def test_a_failure_not_cured_in_15_days_denies_the_application_in_the_sweep(
    patrocinio_case: Case, patrocinio: Municipality
) -> None:
    """Patrocínio art. 9 § 3: the vehicle still failing after the 15 days, the application is denied."""
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    row = services.inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    services.inspection_record_result(
        actor=None,
        inspection=row,
        performed_on=AS_OF,
        as_of=AS_OF,
        items=all_items(row, failing=("recent_maintenance",)),
    )
    application.refresh_from_db()
    assert application.state == "awaiting_inspection" and application.cure_deadline == dt.date(2026, 3, 25)
    failed = application.events.get(kind="inspection_failed")
    assert (
        failed.data == {"inspection_id": row.pk, "cure_deadline": "2026-03-25"}
        and "25/03/2026" in failed.note
    )
    assert run_sweep(dt.date(2026, 3, 25))["applications_denied_after_inspection"] == 0  # the 15th day
    assert run_sweep(dt.date(2026, 3, 26))["applications_denied_after_inspection"] == 1
    assert run_sweep(dt.date(2026, 3, 27))["applications_denied_after_inspection"] == 0  # idempotent
    application.refresh_from_db()
    assert application.state == "denied" and application.decided_on == dt.date(2026, 3, 26)
    assert "indeferido" in application.events.get(kind="denied").note


def test_a_reinspection_passed_in_time_keeps_the_application_from_the_sweep(
    patrocinio_case: Case, patrocinio: Municipality
) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    first = services.inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    services.inspection_record_result(
        actor=None,
        inspection=first,
        performed_on=AS_OF,
        as_of=AS_OF,
        items=all_items(first, failing=("platform_logo",)),
    )
    follow_up = Inspection.objects.get(previous=first)
    later = AS_OF + dt.timedelta(days=5)
    services.inspection_record_result(
        actor=None, inspection=follow_up, performed_on=later, items=all_items(follow_up), as_of=later
    )
    assert run_sweep(dt.date(2026, 3, 26))["applications_denied_after_inspection"] == 0
    application.refresh_from_db()
    assert application.state == "in_analysis" and application.cure_deadline is None


def test_a_periodic_inspection_passed_moves_the_permit_next_inspection_a_year_on(
    patrocinio_case: Case, patrocinio: Municipality
) -> None:
    """Patrocínio art. 9: the vistoria is yearly from the last approval; the permit follows the new one."""
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    first = services.inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    services.inspection_record_result(
        actor=None, inspection=first, performed_on=AS_OF, items=all_items(first), as_of=AS_OF
    )
    licensing.application_approve(application=application, actor=None, as_of=AS_OF)
    permit = Permit.objects.get(application=application)
    assert permit.inspection_due_on == dt.date(2027, 3, 10)
    Permit.objects.filter(pk=permit.pk).update(inspection_overdue=True)
    later = AS_OF + dt.timedelta(days=40)
    row = scheduled(patrocinio_case, as_of=later, kind="periodic")
    services.inspection_record_result(
        actor=None, inspection=row, performed_on=later, items=all_items(row), as_of=later
    )
    permit.refresh_from_db()
    assert permit.inspection_due_on == dt.date(2027, 4, 19) and not permit.inspection_overdue
    audit = AuditEvent.objects.get(action="permit.inspection_done")
    assert audit.after is not None and audit.after["inspection_due_on"] == "2027-04-19"
