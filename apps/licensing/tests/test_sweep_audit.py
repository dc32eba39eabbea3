"""The daily sweep's record: every row a step changes has its own audit event, written in the step's
transaction (a failure leaves neither the change nor its event), the chains stay verifiable, and a second run
of the same day adds nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.management import call_command

from apps.audit import services as audit_services
from apps.audit.models import AuditEvent
from apps.jobs.models import OutboundMail
from apps.licensing import services, sweep
from apps.licensing.casebook import Case, extra_vehicle
from apps.licensing.models import Application, Permit
from apps.licensing.sweep import run_sweep
from apps.licensing.tests.conftest import AS_OF, issue_permit, to_analysis
from apps.registry.models import Document

pytestmark = pytest.mark.django_db


def _before(event: AuditEvent) -> dict[str, Any]:
    assert isinstance(event.before, dict)
    return event.before


def _after(event: AuditEvent) -> dict[str, Any]:
    assert isinstance(event.after, dict)
    return event.after


def _events(action: str, object_type: str) -> dict[str, AuditEvent]:
    return {e.object_id: e for e in AuditEvent.objects.filter(action=action, object_type=object_type)}


def test_each_expired_permit_and_document_has_its_own_event(olimpia_pf: Case, votuporanga_pj: Case) -> None:
    permits = [issue_permit(olimpia_pf), issue_permit(votuporanga_pj)]
    permits.append(issue_permit(votuporanga_pj, vehicle=extra_vehicle(votuporanga_pj, 81, as_of=AS_OF)))
    counts = run_sweep(dt.date(2030, 1, 1))
    assert counts["permits_expired"] == 3
    events = _events("permit.validity_ended", "licensing.permit")
    assert set(events) == {str(p.pk) for p in permits}
    for permit in permits:
        event = events[str(permit.pk)]
        assert event.municipality_id == permit.municipality_id and event.actor_name == "sistema"
        assert _before(event)["state"] == "active" and _after(event)["state"] == "expired"
        assert _after(event)["closed_on"] == "2030-01-01" and _after(event)["number"] == permit.number
    expired = set(Document.objects.filter(status="expired").values_list("pk", flat=True))
    documents = _events("document.expired", "registry.document")
    assert len(expired) == counts["documents_expired"] > 0
    assert {int(pk) for pk in documents} == expired
    assert all(
        _before(e)["status"] == "valid" and _after(e)["status"] == "expired" for e in documents.values()
    )


def test_a_second_run_of_the_same_day_writes_no_event(olimpia_pf: Case) -> None:
    issue_permit(olimpia_pf)
    run_sweep(dt.date(2030, 1, 1))
    run_level = ("licensing.daily_sweep", "licensing.standings_checked")  # the run's own records
    before = AuditEvent.objects.exclude(action__in=run_level).count()
    again = run_sweep(dt.date(2030, 1, 1))
    assert sum(again.values()) == 0
    assert AuditEvent.objects.exclude(action__in=run_level).count() == before


def test_the_chains_verify_after_a_batched_sweep(olimpia_pf: Case, votuporanga_pj: Case) -> None:
    issue_permit(olimpia_pf)
    issue_permit(votuporanga_pj)
    run_sweep(dt.date(2030, 1, 1))
    call_command("audit_verify")  # raises CommandError on a broken link


def test_a_lifted_suspension_and_an_archived_application_are_audited(
    olimpia_pf: Case, patrocinio_pf: Case
) -> None:
    permit = issue_permit(olimpia_pf)
    services.permit_suspend(
        permit=permit,
        actor=None,
        as_of=AS_OF,
        until=AS_OF + dt.timedelta(days=5),
        reason="Suspensão de 5 dias (art. 24).",
    )
    application = services.application_evaluate(
        application=to_analysis(patrocinio_pf), actor=None, as_of=AS_OF
    )
    services.application_request_documents(application=application, actor=None, as_of=AS_OF, note="Taxa.")
    run_sweep(dt.date(2026, 3, 26))
    lifted = AuditEvent.objects.get(action="permit.reactivate", object_id=str(permit.pk))
    assert _before(lifted)["state"] == "suspended" and _after(lifted) == {
        **_before(lifted),
        "state": "active",
        "suspended_until": None,
    }
    archived = AuditEvent.objects.get(action="application.archived", object_id=str(application.pk))
    assert _before(archived)["state"] == "pending_documents" and _after(archived)["state"] == "archived"
    assert "taxas recolhidas perdidas" in _after(archived)["note"]


def test_a_reminder_is_audited_with_its_mail_in_the_outbox(olimpia_pf: Case) -> None:
    permit = issue_permit(olimpia_pf)
    assert permit.valid_until is not None
    run_sweep(permit.valid_until - dt.timedelta(days=7))
    event = AuditEvent.objects.get(action="permit.reminder", object_id=str(permit.pk))
    assert event.after == {
        "days_before": 7,
        "expires_on": permit.valid_until.isoformat(),
        "mail_queued": True,
    }
    assert OutboundMail.objects.filter(subject__contains=permit.number, status="pending").count() == 1


def test_a_failure_mid_step_rolls_back_the_rows_and_their_events(
    olimpia_pf: Case, votuporanga_pj: Case, monkeypatch: Any
) -> None:
    """The second municipality's chain refuses the append: the first municipality's permits (already updated and
    audited in this step) are rolled back with their events, the run stops there, and a new run does it all."""
    issue_permit(olimpia_pf)
    issue_permit(votuporanga_pj)
    real = audit_services.audit_record_batch
    expiry_chains: list[str] = []

    def failing_on_the_second_chain(*, entries: Any, **kwargs: Any) -> int:
        entries = list(entries)
        if entries and entries[0].action == "permit.validity_ended":
            expiry_chains.append(kwargs["municipality"].ibge_code)
            if len(expiry_chains) == 2:
                raise RuntimeError("chain unavailable")
        return real(entries=entries, **kwargs)

    monkeypatch.setattr(sweep, "audit_record_batch", failing_on_the_second_chain)
    with pytest.raises(RuntimeError, match="chain unavailable"):
        run_sweep(dt.date(2030, 1, 1))
    assert len(expiry_chains) == 2  # the first chain's batch was written, then undone
    assert not Document.objects.filter(status="expired").exists()  # the run stopped at the failing step
    assert not Permit.objects.filter(state="expired").exists()
    assert not AuditEvent.objects.filter(action="permit.validity_ended").exists()
    assert not AuditEvent.objects.filter(action="licensing.daily_sweep").exists()
    monkeypatch.setattr(sweep, "audit_record_batch", real)
    assert run_sweep(dt.date(2030, 1, 1))["permits_expired"] == 2
    assert AuditEvent.objects.filter(action="permit.validity_ended").count() == 2


def test_the_command_records_one_run_with_every_step(olimpia_pf: Case) -> None:
    issue_permit(olimpia_pf)
    call_command("daily_sweep", "--as-of", "2030-01-01", "--no-progress")
    run = AuditEvent.objects.get(action="licensing.daily_sweep", object_id="2030-01-01")
    assert _after(run)["permits_expired"] == 1 and set(_after(run)) == {s.key for s in sweep.sweep_steps()}


def test_an_untouched_application_has_no_event(olimpia_pf: Case) -> None:
    application = to_analysis(olimpia_pf)
    run_sweep(dt.date(2030, 1, 1))
    assert Application.objects.get(pk=application.pk).state == "in_analysis"
    assert not AuditEvent.objects.filter(
        object_type="licensing.application", action__in=["application.archived", "application.denied"]
    ).exists()
