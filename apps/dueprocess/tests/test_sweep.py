"""The sweep steps due process offers: suspensions held until the required inspection (Olímpia art. 25 §1),
conditional cassação when not regularized (art. 24 sole §), and cases made final when nobody appealed."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apps.dueprocess.models import Sanction
from apps.dueprocess.services import case_regularize
from apps.dueprocess.sweep import finalize_lapsed, hold_suspensions_awaiting_inspection, revoke_unregularized
from apps.enforcement.choices import CaseState
from apps.inspections.models import Inspection
from apps.licensing.choices import PermitState
from apps.licensing.sweep import lift_suspensions
from apps.registry.models import Ban

from .helpers import evidence_pdf, final_without_appeal, notify, open_case

pytestmark = pytest.mark.django_db
D = dt.date


def _final(olimpia: Any, agent: Any, judge: Any, licensed: Any, code: str) -> Sanction:
    case = open_case(olimpia, agent, code=code, plate=licensed[0].vehicle.plate, on=D(2026, 3, 12))
    return final_without_appeal(case, agent, judge, D(2026, 3, 13), D(2026, 3, 24))


def test_a_suspension_needing_inspection_lasts_until_the_vehicle_passes_one(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    sanction = _final(olimpia, agent_olimpia, judge_olimpia, olimpia_licensed, "OLI-25-I")
    permit = olimpia_licensed[1]
    assert sanction.inspection_required and sanction.suspension_end == D(2026, 5, 22)
    day_after = D(2026, 5, 23)
    assert hold_suspensions_awaiting_inspection(day_after) == 1
    lift_suspensions(day_after)
    permit.refresh_from_db()
    assert permit.state == PermitState.SUSPENDED and permit.suspended_until == day_after
    Inspection.objects.create(  # the vehicle passes the inspection the penalty required
        municipality=olimpia,
        regime_id="olimpia_sp_escolar",
        vehicle=permit.vehicle,
        kind="periodic",
        checklist_kind="periodic",
        scheduled_for=D(2026, 5, 24),
        performed_on=D(2026, 5, 24),
        result="passed",
    )
    assert hold_suspensions_awaiting_inspection(D(2026, 5, 25)) == 0
    lift_suspensions(D(2026, 5, 25))
    permit.refresh_from_db()
    assert permit.state == PermitState.ACTIVE


def test_an_immediate_suspension_not_regularized_becomes_cassation(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    sanction = _final(olimpia, agent_olimpia, judge_olimpia, olimpia_licensed, "OLI-24-II")
    assert sanction.cassation_if_not_regularized_by == D(2026, 4, 10)
    assert revoke_unregularized(D(2026, 4, 10)) == 0
    assert revoke_unregularized(D(2026, 4, 11)) == 1
    assert revoke_unregularized(D(2026, 4, 12)) == 0  # idempotent
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state == PermitState.REVOKED
    _assert_banned_two_years_from_the_day_after(sanction)


def _assert_banned_two_years_from_the_day_after(sanction: Sanction) -> None:
    """Art. 26: the cassação for not regularizing by 10/04/2026 bans the holder from 11/04/2026 for 2 years."""
    sanction.refresh_from_db()
    ban = Ban.objects.get()
    assert sanction.ban == ban and (sanction.ban_start, sanction.ban_until) == (
        D(2026, 4, 11),
        D(2028, 4, 10),
    )
    assert (ban.reason_code, ban.start, ban.until) == ("art26", D(2026, 4, 11), D(2028, 4, 10))
    assert [e["kind"] for e in sanction.effects][-2:] == ["revocation", "ban"]


def test_a_sanction_stored_before_the_engine_gave_the_consequence_asks_it_again(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    sanction = _final(olimpia, agent_olimpia, judge_olimpia, olimpia_licensed, "OLI-24-II")
    assert sanction.decision["result"]["if_not_regularized"]["ban_cite"] == "art26"
    del sanction.decision["result"]["if_not_regularized"]
    sanction.save(update_fields=["decision"])
    assert revoke_unregularized(D(2026, 4, 11)) == 1
    _assert_banned_two_years_from_the_day_after(sanction)


def test_regularized_in_time_the_permit_is_not_revoked(
    olimpia: Any, agent_olimpia: Any, judge_olimpia: Any, olimpia_licensed: Any
) -> None:
    sanction = _final(olimpia, agent_olimpia, judge_olimpia, olimpia_licensed, "OLI-24-II")
    args = {"case": sanction.case, "description": "Tacógrafo instalado", "actor": judge_olimpia}
    with pytest.raises(ValidationError, match="terminou em 10/04/2026, fim da suspensão .*art. 24"):
        case_regularize(**args, regularized_on=D(2026, 4, 11), evidence=evidence_pdf(), as_of=D(2026, 4, 12))
    with pytest.raises(ValidationError, match="Comprovante"):
        case_regularize(**args, regularized_on=D(2026, 4, 5), evidence=None, as_of=D(2026, 4, 5))
    case_regularize(**args, regularized_on=D(2026, 4, 5), evidence=evidence_pdf(), as_of=D(2026, 4, 5))
    assert revoke_unregularized(D(2026, 4, 11)) == 0
    olimpia_licensed[1].refresh_from_db()
    assert olimpia_licensed[1].state != PermitState.REVOKED
    assert not Ban.objects.exists()


def test_cases_nobody_appealed_become_final_the_day_after_the_deadline(
    olimpia: Any, agent_olimpia: Any, olimpia_licensed: Any
) -> None:
    case = open_case(
        olimpia, agent_olimpia, code="OLI-23-I", plate=olimpia_licensed[0].vehicle.plate, on=D(2026, 3, 12)
    )
    notify(case, agent_olimpia, D(2026, 3, 13))
    assert finalize_lapsed(D(2026, 3, 23)) == 0
    assert finalize_lapsed(D(2026, 3, 24)) == 1
    case.refresh_from_db()
    assert case.state == CaseState.FINAL and Sanction.objects.get(case=case).decided_final_on == D(
        2026, 3, 24
    )
