"""The standings step's pre-filter is sound: over generated histories (CNHs and CRLVs expiring and renewed, a
reading of the CNH tolerance changed), evaluating only the candidates stores, every day, exactly what a full
evaluation of every active permit gives — and on quiet days it evaluates fewer permits."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.db import transaction

from apps.audit.models import AuditEvent
from apps.lawconfig.services import interpretation_choose
from apps.licensing import standing_candidates
from apps.licensing.casebook import Case, pdf, pf_case
from apps.licensing.choices import LegalStatus, PermitState
from apps.licensing.models import Permit
from apps.licensing.standing import permits_standing
from apps.licensing.sweep import record_standings
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.registry.models import Document, Driver
from apps.registry.services import document_upload, driver_update
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
DAYS = 14
RECORDED = (LegalStatus.REGULAR, LegalStatus.IRREGULAR, LegalStatus.SUSPENDED)


def _expected(permit: Permit, standing: Any) -> dict[str, Any] | None:
    """What permit_standing_record keeps for this standing (None: the permit's own acts speak)."""
    if standing.status not in RECORDED or (
        standing.status == LegalStatus.SUSPENDED and not standing.document_driven
    ):
        return None
    return standing.to_dict() if standing.document_driven else {}


def _assert_as_full_evaluation(day: dt.date) -> None:
    active = list(Permit.objects.filter(state=PermitState.ACTIVE))
    fresh = permits_standing(active, as_of=day)
    for permit in active:
        expected = _expected(permit, fresh[permit.pk])
        if expected is not None:
            assert permit.standing == expected, (permit, day, fresh[permit.pk])


def _happen(rng: random.Random, case: Case, day: dt.date) -> None:
    """One thing on ``day``: the CNH or the CRLV renewed (for a few days or a year), or nothing."""
    action = rng.choice(("cnh", "crlv", "nothing", "nothing"))
    expiry = day + dt.timedelta(days=rng.choice((0, 2, 5, 365)))
    if action == "cnh":
        driver_update(actor=None, driver=case.driver, as_of=day, cnh_expiry=expiry)
    elif action == "crlv":
        document_upload(
            actor=None,
            owner=case.vehicle,
            kind="crlv",
            upload=pdf(),
            issue_date=day,
            expiry_date=expiry,
            as_of=day,
            regime_id=case.operator.regime_id,
        )


def _expiring_soon(rng: random.Random, cases: list[Case]) -> None:
    """Before the first (full) check: each CNH and CRLV on file ends within the history, so permits lapse on
    days nothing else happens to them."""
    for case in cases:
        for documents in (
            Document.objects.filter(person=case.person, kind="cnh"),
            case.vehicle.documents.all(),
        ):
            documents.update(valid_until=AS_OF + dt.timedelta(days=rng.randint(1, DAYS)))
        Driver.objects.filter(pk=case.driver.pk).update(
            cnh_expiry=AS_OF + dt.timedelta(days=rng.randint(1, DAYS))
        )
        case.driver.refresh_from_db()


def _read_tolerance(municipality: Municipality, option: str, day: dt.date) -> None:
    interpretation_choose(
        actor=None,
        municipality=municipality,
        regime_id="olimpia_sp_escolar",
        interpretation_id="INT-OLI-CNH-TOLERANCE",
        option=option,
        decided_by_act="Decreto nº 9/2026",
        decided_on=day,
    )


@pytest.mark.parametrize("seed", [11])
def test_the_filtered_step_stores_what_the_full_evaluation_gives(
    seed: int, olimpia: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In a test every change is seconds old: without the margin, only what changed since the last check counts.
    monkeypatch.setattr(standing_candidates, "MARGIN", dt.timedelta(0))
    rng = random.Random(seed)
    cases = [pf_case(olimpia, number, f"Pessoa {number}", as_of=AS_OF) for number in (1, 2, 3)]
    for case in cases:
        issue_permit(case)
    _expiring_soon(rng, cases)
    evaluated = []
    for offset in range(DAYS):
        day = AS_OF + dt.timedelta(days=offset)
        _happen(rng, rng.choice(cases), day)
        if offset == DAYS // 2:
            _read_tolerance(olimpia, rng.choice(("strict", "tolerated")), day)
        with transaction.atomic():
            record_standings(day)
        check = AuditEvent.objects.filter(action=standing_candidates.CHECK_ACTION).latest("pk")
        evaluated.append((check.after or {})["evaluated"])
        _assert_as_full_evaluation(day)
    assert evaluated[0] == len(cases)  # no check before: every active permit
    assert min(evaluated[1:]) < len(cases)  # a quiet day skips the permits nothing can have changed
    assert AuditEvent.objects.filter(action="permit.standing").count() >= 2  # lapses and renewals happened
