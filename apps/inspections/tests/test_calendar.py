"""The calendar by final plate digit (Votuporanga art. 4º § 4º) and the yearly one (Patrocínio art. 9), as the
engine answers it; Olímpia's law has none."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from apps.inspections import calendar as cal
from apps.inspections.models import Inspection
from apps.inspections.presenters import year_chart
from apps.inspections.services import inspection_record_result, inspection_schedule
from apps.inspections.tests.conftest import AS_OF, all_items, issue_permit, patrocinio_fee_paid, scheduled
from apps.licensing import services as licensing
from apps.licensing.casebook import Case
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _ctx(municipality: Municipality, regime_id: str, today: dt.date, user: object) -> cal.CalendarContext:
    return cal.CalendarContext(
        municipality, regime_id, today, cal.vehicles_in_service(municipality, regime_id, user)
    )


def _pass(case: Case, on: dt.date) -> Inspection:
    row = scheduled(case, as_of=on, kind="semestral")
    return inspection_record_result(
        actor=None, inspection=row, performed_on=on, items=all_items(row), as_of=on
    )


def test_a_plate_ending_in_2_is_due_in_february_and_august(
    votuporanga_case: Case, votuporanga: Municipality, admin_user: object
) -> None:
    assert votuporanga_case.vehicle.plate.endswith("2")
    issue_permit(votuporanga_case)
    ctx = _ctx(votuporanga, "votuporanga_sp_escolar", dt.date(2026, 8, 10), admin_user)
    assert cal.month_schedule(ctx, 2026, 3) == []
    (august,) = cal.month_schedule(ctx, 2026, 8)
    assert august.status == cal.DUE and "art. 4º, § 4º" in august.basis
    # February 2026 ended before the permit (10/03/2026): the vehicle was not in service yet
    assert cal.month_schedule(ctx, 2026, 2) == []


def test_august_becomes_overdue_after_the_month_and_done_with_an_august_inspection(
    votuporanga_case: Case, votuporanga: Municipality, admin_user: object
) -> None:
    issue_permit(votuporanga_case)
    late = _ctx(votuporanga, "votuporanga_sp_escolar", dt.date(2026, 9, 2), admin_user)
    (august,) = cal.month_schedule(late, 2026, 8)
    assert august.status == cal.OVERDUE and "135 UFM" in august.message
    _pass(votuporanga_case, dt.date(2026, 8, 20))
    done = _ctx(votuporanga, "votuporanga_sp_escolar", dt.date(2026, 9, 2), admin_user)
    (august,) = cal.month_schedule(done, 2026, 8)
    assert august.status == cal.DONE and august.last_inspection == dt.date(2026, 8, 20)


def test_the_year_picture_counts_due_done_and_overdue(
    votuporanga_case: Case, votuporanga: Municipality, admin_user: object
) -> None:
    issue_permit(votuporanga_case)
    counts = cal.year_picture(
        _ctx(votuporanga, "votuporanga_sp_escolar", dt.date(2027, 3, 5), admin_user), 2026
    )
    by_month = {count.month: count for count in counts}
    assert (by_month[8].due, by_month[8].done, by_month[8].overdue) == (1, 0, 1)
    assert by_month[2].due == 0  # February 2026: the permit dates from March
    assert sum(count.due for count in counts) == 1
    chart = year_chart(counts, 8)
    assert len(chart.bars) == 36 and any(bar.title == "ago/2026: 1 atrasadas" for bar in chart.bars)


def test_patrocinio_is_due_a_year_after_the_last_inspection(
    patrocinio_case: Case, patrocinio: Municipality, admin_user: object
) -> None:
    application = patrocinio_fee_paid(patrocinio_case, patrocinio)
    row = inspection_schedule(
        actor=None, vehicle=patrocinio_case.vehicle, application=application, scheduled_for=AS_OF, as_of=AS_OF
    )
    inspection_record_result(
        actor=None, inspection=row, performed_on=AS_OF, items=all_items(row), as_of=AS_OF
    )
    licensing.application_approve(application=application, actor=None, as_of=AS_OF)
    ctx = _ctx(patrocinio, "patrocinio_mg_aplicativo", dt.date(2027, 4, 1), admin_user)
    due = [cal.month_status(ctx, item, 2027, 3) for item in ctx.vehicles]
    assert [d.status for d in due if d] == [cal.OVERDUE]


def test_olimpia_has_no_calendar() -> None:
    assert not cal.answers_calendar("olimpia_sp_escolar")
    assert cal.answers_calendar("votuporanga_sp_escolar")


def test_the_calendar_page_draws_the_year_and_lists_the_month(
    votuporanga_case: Case, votuporanga: Municipality, admin_client: Client
) -> None:
    issue_permit(votuporanga_case)
    url = reverse("inspections:calendar", args=["3557105"])
    html = admin_client.get(url, {"ano": 2026, "mes": 8}).content.decode()
    assert "<svg" in html and 'data-testid="year-chart"' in html
    assert f'data-testid="due-{votuporanga_case.vehicle.plate}"' in html


def test_the_olimpia_page_says_the_law_sets_no_calendar(admin_client: Client, olimpia: Municipality) -> None:
    html = admin_client.get(reverse("inspections:calendar", args=["3533908"])).content.decode()
    assert 'data-testid="no-calendar"' in html
