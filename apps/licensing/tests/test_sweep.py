"""The daily sweep: what it changes, that a second run changes nothing, and that it is set-based (the number of
queries does not grow with the number of rows)."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.jobs.models import OutboundMail
from apps.jobs.services import outbox_deliver
from apps.licensing import services, sweep
from apps.licensing.casebook import Case, extra_vehicle
from apps.licensing.models import Application, Permit, Reminder
from apps.licensing.standing_candidates import high_water, record_check
from apps.licensing.sweep import reminder_windows, run_sweep
from apps.licensing.tests.conftest import AS_OF, issue_permit, to_analysis
from apps.registry.catalog import kind_labels
from apps.registry.models import Document

pytestmark = pytest.mark.django_db


def test_expired_permits_and_documents_are_closed_once(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    assert permit.valid_until is not None
    day_after = permit.valid_until + dt.timedelta(days=1)
    first = run_sweep(day_after)
    permit.refresh_from_db()
    assert permit.state == "expired" and permit.closed_on == day_after
    assert first["permits_expired"] == 1
    assert first["documents_expired"] == Document.objects.filter(status="expired").count() > 0
    second = run_sweep(day_after)
    assert second["permits_expired"] == 0 and second["documents_expired"] == 0


def test_suspension_ends_the_day_after_its_last_day(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    services.permit_suspend(
        permit=permit,
        actor=None,
        as_of=AS_OF,
        until=AS_OF + dt.timedelta(days=5),
        reason="Suspensão de 5 dias (art. 24).",
    )
    run_sweep(AS_OF + dt.timedelta(days=5))
    permit.refresh_from_db()
    assert permit.state == "suspended"
    run_sweep(AS_OF + dt.timedelta(days=6))
    permit.refresh_from_db()
    assert permit.state == "active" and permit.suspended_until is None


def test_overdue_inspection_is_flagged(votuporanga_pj: Case) -> None:
    permit = issue_permit(votuporanga_pj)
    Permit.objects.filter(pk=permit.pk).update(inspection_due_on=AS_OF + dt.timedelta(days=3))
    assert run_sweep(AS_OF + dt.timedelta(days=3))["inspections_overdue"] == 0
    assert run_sweep(AS_OF + dt.timedelta(days=4))["inspections_overdue"] == 1
    permit.refresh_from_db()
    assert permit.inspection_overdue


def test_application_past_its_cure_deadline_is_archived_with_fees_forfeited(patrocinio_pf: Case) -> None:
    application = services.application_evaluate(
        application=to_analysis(patrocinio_pf), actor=None, as_of=AS_OF
    )
    services.application_request_documents(application=application, actor=None, as_of=AS_OF, note="Taxa.")
    assert run_sweep(dt.date(2026, 3, 25))["applications_archived"] == 0  # last day of the 15 (art. 7)
    assert run_sweep(dt.date(2026, 3, 26))["applications_archived"] == 1
    application.refresh_from_db()
    assert application.state == "archived" and application.fees_forfeited
    event = application.events.get(kind="archived")
    assert event.actor_name == "sistema" and "taxas recolhidas perdidas" in event.note
    assert run_sweep(dt.date(2026, 3, 27))["applications_archived"] == 0


def test_reminder_windows_send_only_the_nearest_threshold() -> None:
    windows = reminder_windows(dt.date(2026, 1, 1))
    assert windows == [
        (7, dt.date(2026, 1, 1), dt.date(2026, 1, 8)),
        (30, dt.date(2026, 1, 9), dt.date(2026, 1, 31)),
        (60, dt.date(2026, 2, 1), dt.date(2026, 3, 2)),
    ]


def sweep_and_deliver(as_of: dt.date) -> None:
    """The sweep only queues e-mails; the worker's delivery (run here in-process) sends them."""
    run_sweep(as_of)
    outbox_deliver()


def test_a_reminder_is_queued_not_sent_inside_the_sweep(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    assert permit.valid_until is not None
    mail.outbox.clear()
    run_sweep(permit.valid_until - dt.timedelta(days=7))
    assert mail.outbox == []
    queued = OutboundMail.objects.get(subject__contains=permit.number)
    assert queued.status == "pending" and queued.recipient == olimpia_pf.person.email


def test_permit_reminders_at_60_30_and_7_days_each_sent_once(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    assert permit.valid_until is not None
    sent: list[int] = []
    for days in (60, 59, 30, 29, 7, 6):
        mail.outbox.clear()
        sweep_and_deliver(permit.valid_until - dt.timedelta(days=days))
        sent.append(len([m for m in mail.outbox if permit.number in m.subject]))
    assert sent == [1, 0, 1, 0, 1, 0]
    assert sorted(Reminder.objects.filter(target="permit").values_list("days_before", flat=True)) == [
        7,
        30,
        60,
    ]
    message = Reminder.objects.get(target="permit", days_before=7)
    assert message.recipient == olimpia_pf.person.email


def test_document_reminder_goes_to_the_owner(olimpia_pf: Case) -> None:
    document = Document.objects.filter(vehicle=olimpia_pf.vehicle, kind="crlv").get()
    assert document.valid_until is not None
    mail.outbox.clear()
    sweep_and_deliver(document.valid_until - dt.timedelta(days=30))
    crlv = [m for m in mail.outbox if m.subject.startswith("Certificado de Registro e Licenciamento")]
    assert crlv and crlv[0].to == [olimpia_pf.person.email]


def test_one_run_reminds_each_window_with_its_own_threshold(olimpia_pf: Case) -> None:
    """The windows go in one statement: each row keeps its own threshold in the reminder, the event, the e-mail."""
    as_of = dt.date(2026, 3, 2)
    documents = list(Document.objects.filter(vehicle=olimpia_pf.vehicle).order_by("pk")[:3])
    for days, document in zip((5, 20, 45), documents, strict=True):
        Document.objects.filter(pk=document.pk).update(valid_until=as_of + dt.timedelta(days=days))
    run_sweep(as_of)
    expected = {str(d.pk): days for days, d in zip((7, 30, 60), documents, strict=True)}
    reminded = Reminder.objects.filter(target="document", target_id__in=[d.pk for d in documents])
    assert {str(pk): days for pk, days in reminded.values_list("target_id", "days_before")} == expected
    events = AuditEvent.objects.filter(action="document.reminder", object_id__in=expected)
    assert {e.object_id: (e.after or {})["days_before"] for e in events} == expected
    bodies = OutboundMail.objects.filter(reason="licensing.reminder.document").values_list("body", flat=True)
    for days in (7, 30, 60):
        assert sum(f"(em {days} dias ou menos)" in body for body in bodies) >= 1


def _queries(as_of: dt.date) -> int:
    with CaptureQueriesContext(connection) as captured:
        run_sweep(as_of)
    return len(captured)


def test_the_sweep_is_set_based(olimpia_pf: Case, votuporanga_pj: Case) -> None:
    issue_permit(olimpia_pf)
    issue_permit(votuporanga_pj)
    with transaction.atomic():  # a check recorded the day before: both measured runs take the pre-filter
        marks = high_water()
        record_check(as_of=dt.date(2027, 5, 31), started=timezone.now(), marks=marks, evaluated=0, changed=0)
    few = _queries(dt.date(2027, 6, 1))
    Permit.objects.update(state="active")
    Document.objects.update(status="valid")
    for number in range(3):
        issue_permit(votuporanga_pj, vehicle=extra_vehicle(votuporanga_pj, 80 + number, as_of=AS_OF))
    more = _queries(dt.date(2027, 6, 1))
    assert more == few  # three times the permits and documents, the same statements


def test_the_command_prints_each_step_and_audits_the_run(olimpia_pf: Case) -> None:
    issue_permit(olimpia_pf)
    out, err = StringIO(), StringIO()
    call_command("daily_sweep", "--as-of", "2027-06-01", stdout=out, stderr=err)
    assert "Autorizações vencidas: 1" in out.getvalue()
    assert "Rotina de 01/06/2027" in err.getvalue()  # the tqdm progress bar
    assert AuditEvent.objects.filter(action="licensing.daily_sweep", object_id="2027-06-01").exists()


def test_the_command_refuses_a_bad_date() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="data inválida"):
        call_command("daily_sweep", "--as-of", "31/12/2026")


def test_an_untouched_application_is_not_archived(olimpia_pf: Case) -> None:
    application = to_analysis(olimpia_pf)
    run_sweep(dt.date(2030, 1, 1))
    assert Application.objects.get(pk=application.pk).state == "in_analysis"


def test_a_document_reminder_text_is_built_once_per_label_date_and_window(olimpia_pf: Case) -> None:
    regimes = olimpia_pf.vehicle.municipality.regimes
    label = kind_labels(tuple(regimes))["crlv"]
    message = sweep._document_messages()
    row = {"regimes": regimes, "kind": "crlv", "valid_until": dt.date(2030, 1, 2)}
    first = message(row, 30)
    assert first == (
        f"{label}: vence em 02/01/2030",
        f"O documento «{label}» cadastrado na Prefeitura vale até 02/01/2030 (em 30 dias ou menos). "
        "Envie o documento atualizado antes do vencimento.",
    )
    assert message(dict(row), 30) is first  # the same label, date and window: the text built before
    assert message({**row, "regimes": None}, 7)[0] == "crlv: vence em 02/01/2030"  # no regime names the kind
    assert "(em 7 dias ou menos)" in message(row, 7)[1]
