"""Deadlines at risk: the engine's stored deadlines of judgments, inspections, cure windows and guides, each
with its article and the page where someone acts, within the window asked (and the overdue ones)."""

from __future__ import annotations

import datetime as dt
import subprocess
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import lawcode
from apps.accounts.models import User
from apps.dueprocess.choices import Verdict
from apps.dueprocess.models import Appeal
from apps.dueprocess.services import appeal_judge
from apps.inspections.choices import InspectionKind
from apps.inspections.models import Inspection
from apps.licensing.choices import ApplicationKind, ApplicationState
from apps.licensing.models import Application
from apps.reports.deadlines import deadlines_at_risk, deadlines_for_reader, month_grids
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from outorga.pytest_plugin import require_tools

pytestmark = pytest.mark.django_db
D = dt.date
OLIMPIA = "olimpia_sp_escolar"


def cite(ref: str) -> dict[str, Any]:
    return lawcode.get_regime(OLIMPIA).resolve_citation(ref, D(2026, 3, 1)).to_dict()


def test_a_pending_judgment_is_at_risk_near_its_legal_deadline(
    pending_defence: Appeal, olimpia: Municipality, judge_olimpia: User
) -> None:
    due = pending_defence.judgment_deadline
    assert due is not None
    assert deadlines_at_risk(municipality=olimpia, as_of=due - dt.timedelta(days=10), within_days=5) == []
    [item] = deadlines_at_risk(municipality=olimpia, as_of=due - dt.timedelta(days=3), within_days=5)
    assert item.due_on == due and item.kind.key == "judgment"
    assert item.status(due - dt.timedelta(days=3)) == "vence em 3 dia(s)"
    assert item.cite and item.cite.startswith("Lei") and "art." in item.cite
    assert item.url == reverse("dueprocess:judge", args=[olimpia.ibge_code, pending_defence.pk])
    assert item.acts == ("dueprocess.appeal", "judge_first")
    # Overdue and still not judged: still at risk; judged: gone.
    [late] = deadlines_at_risk(municipality=olimpia, as_of=due + dt.timedelta(days=2), within_days=0)
    assert late.status(due + dt.timedelta(days=2)) == "vencido há 2 dia(s)"
    appeal_judge(
        appeal=pending_defence,
        verdict=Verdict.GRANTED,
        reasoning="Provado.",
        decided_on=D(2026, 3, 20),
        actor=judge_olimpia,
        as_of=D(2026, 3, 20),
    )
    assert deadlines_at_risk(municipality=olimpia, as_of=due, within_days=5) == []


def test_inspections_cure_windows_and_guides_carry_their_basis(
    olimpia: Municipality, olimpia_licensed: Any
) -> None:
    permit = olimpia_licensed[1]
    Inspection.objects.create(
        municipality=olimpia,
        regime_id=OLIMPIA,
        vehicle=permit.vehicle,
        kind=InspectionKind.REINSPECTION,
        checklist_kind=InspectionKind.REINSPECTION,
        scheduled_for=D(2026, 4, 6),
        deadline=D(2026, 4, 8),
        deadline_basis="Lei 5.171/2025 (Olímpia), art. 9º",
    )
    wording = {
        "code": "cure",
        "status": "info",
        "message": "Sanar até 07/04/2026.",
        "citations": [cite("art3")],
    }
    other = {"code": "x", "status": "met", "message": "Ok.", "citations": [cite("art22")]}
    Application.objects.create(
        municipality=olimpia,
        regime_id=OLIMPIA,
        number="9/2026",
        year=2026,
        sequence=9,
        kind=ApplicationKind.VEHICLE_PERMIT,
        state=ApplicationState.PENDING_DOCUMENTS,
        operator=permit.operator,
        cure_deadline=D(2026, 4, 7),
        last_decision={"findings": [other, wording]},
    )
    found = deadlines_at_risk(municipality=olimpia, as_of=D(2026, 4, 1), within_days=7)
    assert [(i.kind.key, i.due_on, i.cite) for i in found] == [
        ("cure", D(2026, 4, 7), "Lei 5.171/2025 (Olímpia), art. 3º"),  # the finding naming the date
        ("inspection", D(2026, 4, 8), "Lei 5.171/2025 (Olímpia), art. 9º"),
    ]
    assert found[1].acts == ("inspections.inspection", "change")
    shorter = deadlines_at_risk(municipality=olimpia, as_of=D(2026, 4, 1), within_days=6)
    assert [i.kind.key for i in shorter] == ["cure"]  # the window ends on 07/04, inclusive


def test_the_reader_sees_only_the_kinds_their_role_may_list(
    pending_defence: Appeal, olimpia: Municipality, make_staff: Any, admin_olimpia: User
) -> None:
    inspector = make_staff("ivo.vistoriador", (olimpia, Role.INSPECTOR))
    due = pending_defence.judgment_deadline
    assert due is not None
    args: dict[str, Any] = {"municipality": olimpia, "as_of": due, "within_days": 1}
    assert [i.kind.key for i in deadlines_for_reader(admin_olimpia, **args)] == ["judgment"]
    assert deadlines_for_reader(inspector, **args) == []
    assert deadlines_for_reader(admin_olimpia, **args, regime="votuporanga_sp_escolar") == []


def test_the_calendar_puts_each_deadline_on_its_day(pending_defence: Appeal, olimpia: Municipality) -> None:
    due = pending_defence.judgment_deadline
    assert due is not None
    as_of = due - dt.timedelta(days=3)
    found = deadlines_at_risk(municipality=olimpia, as_of=as_of, within_days=5)
    grids = month_grids(found, as_of, as_of + dt.timedelta(days=5))
    days = {day.on: day for grid in grids for week in grid.weeks for day in week if day.on}
    assert [item.kind.key for item in days[due].items] == ["judgment"]
    assert days[as_of].today and not days[due].today
    assert all(len(week) == 7 for grid in grids for week in grid.weeks)
    assert grids[0].weeks[0][0].on is None or grids[0].weeks[0][0].on.weekday() == 0  # Monday first
    # Weeks later, still not judged: in the list, but the calendar starts at today's month.
    later = due + dt.timedelta(days=45)
    overdue = deadlines_at_risk(municipality=olimpia, as_of=later, within_days=5)
    assert [item.due_on for item in overdue] == [due]
    late_grids = month_grids(overdue, later, later + dt.timedelta(days=5))
    assert late_grids[0].first == later.replace(day=1)
    assert not any(day.items for grid in late_grids for week in grid.weeks for day in week)


def test_the_monthly_pdf_prints_the_new_sections_and_the_deadlines_at_risk(
    pending_defence: Appeal, admin_olimpia_client: Client
) -> None:
    url = reverse("reports:monthly_pdf", args=[pending_defence.case.municipality.ibge_code])
    response = admin_olimpia_client.get(url, {"mes": "2026-03"})
    require_tools("pdftotext", package="poppler-utils")
    text = subprocess.run(["pdftotext", "-", "-"], input=response.content, capture_output=True, check=True)
    words = " ".join(text.stdout.decode().split())
    for title in (
        "Autorizatários e condutores por regime",
        "Autos de infração por gravidade",
        "Reincidência nas penalidades definitivas",
        "Recursos por instância e resultado",
        "Tempo do auto à decisão definitiva",
        "Taxas de licenciamento por mês (R$)",
        "Multas e taxas emitidas em unidade fiscal",
        "Requerimentos protocolados e decididos por mês",
        "Indeferimentos por dispositivo não atendido",
        "Prazos legais em risco",
    ):
        assert title in words, title
    assert f"{pending_defence.judgment_deadline:%d/%m/%Y}" in words
    assert f"Julgar o recurso do auto {pending_defence.case.number}" in words
