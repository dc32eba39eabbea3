"""The demo seeder leaves, per regime, cases in every due-process state, and a second run creates nothing."""

from __future__ import annotations

from typing import Any

import pytest

from apps.dueprocess.choices import SanctionState
from apps.dueprocess.models import Appeal, Sanction
from apps.enforcement.choices import CaseState
from apps.enforcement.models import InfractionCase
from apps.finance.models import Refund
from apps.licensing.choices import PermitState
from apps.licensing.models import Permit
from apps.tenancy.demo import seed_demo

pytestmark = pytest.mark.django_db


def test_every_state_per_regime_and_idempotent(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    seed_demo()
    counts = (Appeal.objects.count(), Sanction.objects.count(), InfractionCase.objects.count())
    for ibge in ("3533908", "3557105", "3148103"):
        states = set(
            InfractionCase.objects.filter(municipality__ibge_code=ibge).values_list("state", flat=True)
        )
        assert {CaseState.IN_DEFENCE, CaseState.FINAL, CaseState.CANCELLED} <= states, ibge
        assert Appeal.objects.filter(case__municipality__ibge_code=ibge, late=True).exists(), ibge
    olimpia = InfractionCase.objects.filter(municipality__ibge_code="3533908")
    assert {CaseState.JUDGED_FIRST, CaseState.IN_APPEAL} <= set(olimpia.values_list("state", flat=True))
    assert Refund.objects.filter(payment__guide__municipality__ibge_code="3533908").exists()
    assert Sanction.objects.filter(state=SanctionState.FINAL, guide__isnull=False).exists()
    assert Permit.objects.filter(municipality__ibge_code="3533908", state=PermitState.SUSPENDED).exists()
    seed_demo()
    assert (Appeal.objects.count(), Sanction.objects.count(), InfractionCase.objects.count()) == counts
