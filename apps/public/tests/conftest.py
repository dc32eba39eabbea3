"""Public-app fixtures: permits issued today through the licensing services, an isolated MEDIA_ROOT and
open-data folder, a generous rate limit (tests about the limit lower it) and a clean cache per test."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.utils import timezone

from apps.licensing import services
from apps.licensing.casebook import Case, pf_case, pj_case
from apps.licensing.models import Permit
from apps.public import kept, stats, verification
from apps.tenancy.models import Municipality


@pytest.fixture(autouse=True)
def _isolated(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.OPEN_DATA_DIR = str(tmp_path / "open-data")
    settings.PUBLIC_RATE_LIMIT = 1000
    settings.PUBLIC_RATE_WINDOW = 60
    settings.PUBLIC_COMPLAINT_RATE_LIMIT = 1000
    settings.PUBLIC_COMPLAINT_POW_BITS = 4  # real challenges, solved in a few hashes
    settings.PUBLIC_COUNT_FLUSH_SECONDS = 0  # counts written at once; test_counts_are_batched sets its own
    settings.PUBLIC_MUNICIPALITY_TTL = 0  # each test has its own rows
    caches["default"].clear()
    stats._pending.clear()
    kept.forget_towns()  # a test with a longer TTL must not hand its rows to the next one
    verification._KNOWN_MUNICIPALITIES.clear()


@pytest.fixture
def today() -> dt.date:
    return timezone.localdate()


def issue_permit(case: Case, as_of: dt.date) -> Permit:
    """Analysis, inspection passed and approval, as the back office does it; returns the permit issued."""
    application = services.application_create(
        actor=None,
        operator=case.operator,
        kind="vehicle_permit",
        as_of=as_of,
        vehicle=case.vehicle,
        enrolled_students=9000,
        carries_children_under_4_or_pcd=False,
    )
    for move in (services.application_submit, services.application_start_analysis):
        application = move(application=application, actor=None, as_of=as_of)
    services.application_require_inspection(application=application, actor=None, as_of=as_of)
    services.application_inspection_passed(
        application=application, performed_on=as_of, actor=None, as_of=as_of
    )
    services.application_approve(application=application, actor=None, as_of=as_of)
    return Permit.objects.select_related("vehicle", "municipality").get(application=application)


@pytest.fixture
def olimpia_case(olimpia: Municipality, today: dt.date) -> Case:
    return pf_case(olimpia, 41, "Maria Aparecida Souza", as_of=today)


@pytest.fixture
def olimpia_permit(olimpia_case: Case, today: dt.date) -> Permit:
    return issue_permit(olimpia_case, today)


@pytest.fixture
def patrocinio_permit(patrocinio: Municipality, today: dt.date) -> Permit:
    from apps.licensing.casebook import upload_documents

    case = pf_case(patrocinio, 43, "Rafael Aplicativo", as_of=today)
    upload_documents(
        case.vehicle, ("inspection_fee_receipt",), as_of=today, regime_id="patrocinio_mg_aplicativo"
    )
    return issue_permit(case, today)


@pytest.fixture
def mei_case(olimpia: Municipality, today: dt.date) -> Case:
    """A company whose legal name carries its owner's CPF, as every MEI's does."""
    return pj_case(olimpia, 44, "Jose Pereira 529.982.247-25", "Jose Pereira", as_of=today)
