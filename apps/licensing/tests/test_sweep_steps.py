"""Other apps' sweep steps: registered from their AppConfig.ready(), run in the place SWEEP_ORDER names.

Due process holds a suspension whose penalty requires an inspection (Olímpia art. 25 § 1): its step must run
before licensing lifts the ended suspensions, or the permit would be active again without the inspection.
"""

from __future__ import annotations

import datetime as dt
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from apps.audit.models import AuditEvent
from apps.dueprocess.tests.helpers import final_without_appeal, open_case
from apps.enforcement.tests.conftest import agent_olimpia, judge_olimpia, olimpia_licensed  # noqa: F401
from apps.inspections.models import Inspection
from apps.licensing import sweep as sweep_module
from apps.licensing.sweep import STEPS, register_sweep_step, run_sweep, sweep_steps

# ruff: noqa: F811  (enforcement's fixtures reused: the tests' parameters name the imported fixtures)
pytestmark = pytest.mark.django_db
D = dt.date


def test_due_process_steps_run_before_the_suspensions_are_lifted() -> None:
    keys = [step.key for step in sweep_steps()]
    assert keys.index("suspensions_held") < keys.index("suspensions_lifted")
    assert keys.index("conditional_cassations") < keys.index("suspensions_lifted")
    assert {"cases_finalized", "conditional_cassations", "suspensions_held"} <= set(keys)


def test_a_step_cannot_take_the_name_of_one_of_licensings() -> None:
    with pytest.raises(ValueError):
        register_sweep_step(STEPS[0].key, lambda as_of: 0, label="Outra")


def test_a_step_without_a_named_place_in_the_order_is_refused() -> None:
    with pytest.raises(ValueError, match="SWEEP_ORDER"):
        register_sweep_step("somewhere", lambda as_of: 0, label="Sem lugar")


def test_a_named_step_never_registered_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep_module, "SWEEP_ORDER", (*sweep_module.SWEEP_ORDER, "never_registered"))
    with pytest.raises(LookupError, match="never_registered"):
        sweep_steps()


def test_a_suspension_awaiting_its_inspection_is_not_lifted_until_the_vehicle_passes(
    olimpia: Any,
    agent_olimpia: Any,
    judge_olimpia: Any,
    olimpia_licensed: Any,
) -> None:
    _, permit = olimpia_licensed
    case = open_case(olimpia, agent_olimpia, code="OLI-25-I", plate=permit.vehicle.plate, on=D(2026, 3, 12))
    sanction = final_without_appeal(case, agent_olimpia, judge_olimpia, D(2026, 3, 13), D(2026, 3, 24))
    assert sanction.inspection_required and sanction.suspension_end == D(2026, 5, 22)
    day_after = D(2026, 5, 23)
    first = run_sweep(day_after)
    assert (first["suspensions_held"], first["suspensions_lifted"]) == (1, 0)
    held = AuditEvent.objects.get(action="permit.suspension_held", object_id=str(permit.pk))
    assert (held.before or {}).get("suspended_until") == "2026-05-22"
    assert (held.after or {}).get("suspended_until") == "2026-05-23"
    second = run_sweep(day_after)  # idempotent: the same day changes nothing
    assert (second["suspensions_held"], second["suspensions_lifted"]) == (0, 0)
    permit.refresh_from_db()
    assert permit.state == "suspended" and permit.suspended_until == day_after
    _passes_inspection(olimpia, permit, D(2026, 5, 24))
    third = run_sweep(D(2026, 5, 25))
    assert (third["suspensions_held"], third["suspensions_lifted"]) == (0, 1)
    permit.refresh_from_db()
    assert permit.state == "active" and permit.suspended_until is None


def _passes_inspection(municipality: Any, permit: Any, on: dt.date) -> None:
    Inspection.objects.create(
        municipality=municipality,
        regime_id="olimpia_sp_escolar",
        vehicle=permit.vehicle,
        kind="periodic",
        checklist_kind="periodic",
        scheduled_for=on,
        performed_on=on,
        result="passed",
    )


def test_the_command_prints_the_registered_steps_too() -> None:
    out = StringIO()
    call_command("daily_sweep", "--as-of", "2026-03-10", "--no-progress", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines.index("Suspensões até vistoria: 0") < lines.index("Suspensões encerradas: 0")
    assert "Requerimentos indeferidos após vistoria reprovada: 0" in lines
