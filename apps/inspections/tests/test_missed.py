"""Missed calendar inspections (Votuporanga art. 4º § 4º and § 5º): the daily sweep keeps each one the engine
finds, with its penalty and article, for an agent to confirm; nothing is owed for a month before the vehicle
entered service; the agent draws up the auto or dismisses the finding, both audited."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.enforcement.models import InfractionCase
from apps.inspections import calendar as cal
from apps.inspections.models import MissedInspection
from apps.inspections.services import missed_inspection_confirm, missed_inspection_dismiss
from apps.inspections.sweep import find_missed_inspections
from apps.inspections.tests.conftest import issue_permit
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.licensing.sweep import run_sweep
from apps.tenancy.models import Municipality
from outorga.localdates import local_date

pytestmark = pytest.mark.django_db


def _before(event: AuditEvent) -> dict[str, Any]:
    assert isinstance(event.before, dict)
    return event.before


def _after(event: AuditEvent) -> dict[str, Any]:
    assert isinstance(event.after, dict)
    return event.after


D = dt.date


def test_no_inspection_is_missed_in_a_month_before_the_vehicle_entered_service(
    votuporanga_case: Case,
) -> None:
    """The plate ends in 2 (February and August); the permit dates from 10/03/2026. On 20/03 the current due
    month is February, which ended before the vehicle was in service: no miss, no 135 UFM."""
    assert votuporanga_case.vehicle.plate.endswith("2")
    issue_permit(votuporanga_case)
    assert find_missed_inspections(D(2026, 3, 20)) == 0
    assert not MissedInspection.objects.exists()


def test_the_engine_alone_says_nothing_was_owed_before_the_in_service_date(
    votuporanga_case: Case, votuporanga: Municipality
) -> None:
    issue_permit(votuporanga_case)
    ctx = cal.CalendarContext(votuporanga, "votuporanga_sp_escolar", D(2026, 3, 20))
    ctx.vehicles = cal.service_vehicles(Permit.objects.all(), votuporanga, "votuporanga_sp_escolar")
    (item,) = ctx.vehicles
    assert item.in_service_from == D(2026, 3, 10)
    answer = cal.cycle_answer(ctx, item)
    assert answer is not None and answer.result["status"] == "not_in_service"
    assert answer.result["missed_penalty_ufm"] is None


def test_a_missed_august_is_kept_once_with_its_penalty_and_article(votuporanga_case: Case) -> None:
    permit = issue_permit(votuporanga_case)
    counts = run_sweep(D(2026, 9, 2))
    assert counts["missed_inspections"] == 1
    missed = MissedInspection.objects.get()
    assert (missed.vehicle_id, missed.permit_id, missed.due_month) == (
        permit.vehicle_id,
        permit.pk,
        "2026-08",
    )
    assert (
        missed.state == "pending" and missed.infraction_code == "VOT-4-PAR5" and missed.penalty == "135 UFM"
    )
    assert "art. 4º, § 5º" in missed.basis and "135 UFM" in missed.message
    event = AuditEvent.objects.get(action="missedinspection.found", object_id=str(missed.pk))
    assert _after(event)["due_month"] == "2026-08" and _after(event)["infraction_code"] == "VOT-4-PAR5"
    assert run_sweep(D(2026, 9, 3))["missed_inspections"] == 0  # idempotent: the same miss is not kept twice
    assert MissedInspection.objects.count() == 1


def test_the_agent_draws_up_the_auto_citing_the_article(
    votuporanga_case: Case, agent_votuporanga: User
) -> None:
    issue_permit(votuporanga_case)
    find_missed_inspections(D(2026, 9, 2))
    missed = MissedInspection.objects.get()
    recorded = timezone.make_aware(dt.datetime(2026, 9, 4, 10, 0))
    confirmed = missed_inspection_confirm(missed=missed, actor=agent_votuporanga, recorded_at=recorded)
    case = InfractionCase.objects.get()
    assert confirmed.state == "confirmed" and confirmed.case == case
    assert case.infraction_code == "VOT-4-PAR5" and case.plate == votuporanga_case.vehicle.plate
    assert local_date(case.occurred_at) == D(2026, 9, 1)
    assert "art. 4º, § 5º" in case.description
    assert AuditEvent.objects.filter(action="missedinspection.confirm", object_id=str(missed.pk)).exists()
    with pytest.raises(ValidationError, match="já foi tratada"):
        missed_inspection_confirm(missed=missed, actor=agent_votuporanga, recorded_at=recorded)


def test_only_an_agent_draws_up_the_auto_and_a_refusal_leaves_the_miss_pending(
    votuporanga_case: Case, make_staff: object, votuporanga: Municipality
) -> None:
    from apps.tenancy.choices import Role

    analyst = make_staff("ana.votuporanga", (votuporanga, Role.ANALYST))  # type: ignore[operator]
    issue_permit(votuporanga_case)
    find_missed_inspections(D(2026, 9, 2))
    missed = MissedInspection.objects.get()
    with pytest.raises(ValidationError, match="agente de fiscalização"):
        missed_inspection_confirm(missed=missed, actor=analyst, recorded_at=timezone.now())
    missed.refresh_from_db()
    assert missed.state == "pending" and not InfractionCase.objects.exists()


def test_the_agent_dismisses_with_a_reason(votuporanga_case: Case, agent_votuporanga: User) -> None:
    issue_permit(votuporanga_case)
    find_missed_inspections(D(2026, 9, 2))
    missed = MissedInspection.objects.get()
    with pytest.raises(ValidationError, match="Motivo do descarte"):
        missed_inspection_dismiss(missed=missed, actor=agent_votuporanga, as_of=D(2026, 9, 4), reason=" ")
    done = missed_inspection_dismiss(
        missed=missed,
        actor=agent_votuporanga,
        as_of=D(2026, 9, 4),
        reason="Vistoria feita no DETRAN em 28/08; laudo apresentado.",
    )
    assert done.state == "dismissed" and "laudo" in done.dismissal_reason
    event = AuditEvent.objects.get(action="missedinspection.dismiss", object_id=str(missed.pk))
    assert _before(event)["state"] == "pending" and _after(event)["state"] == "dismissed"
    assert find_missed_inspections(D(2026, 9, 5)) == 0  # a dismissed miss is not found again


def test_a_regime_without_a_calendar_penalty_keeps_nothing(olimpia_case: Case, patrocinio_case: Case) -> None:
    issue_permit(olimpia_case)
    assert find_missed_inspections(D(2027, 9, 2)) == 0


def _url(name: str, municipality: Municipality, *args: int) -> str:
    return reverse(f"inspections:{name}", args=[municipality.ibge_code, *args])


def test_the_agent_sees_the_miss_and_draws_up_the_auto_from_the_page(
    votuporanga_case: Case, votuporanga: Municipality, agent_votuporanga_client: Client
) -> None:
    client = agent_votuporanga_client
    issue_permit(votuporanga_case)
    find_missed_inspections(D(2026, 9, 2))
    missed = MissedInspection.objects.get()
    page = client.get(_url("missed", votuporanga)).content.decode()
    assert "vistoria de 08/2026" in page and "Penalidade: 135 UFM" in page and "art. 4º, § 5º" in page
    assert "Lavrar auto" in page
    response = client.post(_url("missed_confirm", votuporanga, missed.pk), {"agent_registration": "M-77"})
    case = InfractionCase.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"/autos/{case.pk}/")
    assert case.agent_registration == "M-77"
    resolved = client.get(_url("missed", votuporanga)).content.decode()
    assert case.number in resolved and "Auto lavrado" in resolved


def test_other_municipalities_and_outsiders_get_404(
    votuporanga_case: Case, votuporanga: Municipality, analyst_olimpia_client: Client, outsider_client: Client
) -> None:
    issue_permit(votuporanga_case)
    find_missed_inspections(D(2026, 9, 2))
    missed = MissedInspection.objects.get()
    for client in (analyst_olimpia_client, outsider_client):
        assert client.get(_url("missed", votuporanga)).status_code == 404
        assert client.post(_url("missed_confirm", votuporanga, missed.pk)).status_code == 404
        assert client.post(_url("missed_dismiss", votuporanga, missed.pk), {"reason": "x"}).status_code == 404
    missed.refresh_from_db()
    assert missed.state == "pending"


def test_the_agents_home_card_counts_the_pending_misses(
    votuporanga_case: Case,
    votuporanga: Municipality,
    agent_votuporanga_client: Client,
    agent_votuporanga: User,
) -> None:
    home = reverse("municipality_home", args=[votuporanga.ibge_code])
    issue_permit(votuporanga_case)
    assert all(
        card.key != "missed_inspections" for card in agent_votuporanga_client.get(home).context["cards"]
    )
    find_missed_inspections(D(2026, 9, 2))
    card = next(
        c for c in agent_votuporanga_client.get(home).context["cards"] if c.key == "missed_inspections"
    )
    assert {item.label: item.value for item in card.items} == {"Aguardando o agente": 1}
    missed_inspection_dismiss(
        missed=MissedInspection.objects.get(),
        actor=agent_votuporanga,
        as_of=D(2026, 9, 3),
        reason="Laudo do DETRAN apresentado.",
    )
    assert all(
        card.key != "missed_inspections" for card in agent_votuporanga_client.get(home).context["cards"]
    )
