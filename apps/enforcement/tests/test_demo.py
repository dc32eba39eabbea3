"""The demo seeder: per regime, autos drafted (with warnings), notified in person, by AR and by edital,
clandestine and (Olímpia) traffic-only, through the services; a second run creates nothing."""

from __future__ import annotations

import pytest

from apps.enforcement.models import InfractionCase, Notice
from apps.tenancy.demo import seed_demo

pytestmark = pytest.mark.django_db


def test_demo_has_cases_in_every_enforcement_state_per_regime_and_is_idempotent() -> None:
    seed_demo()
    for ibge in ("3533908", "3557105", "3148103"):
        cases = InfractionCase.objects.filter(municipality__ibge_code=ibge)
        assert set(cases.values_list("state", flat=True)) >= {"drafted", "notified"}
        assert cases.filter(clandestine=True).exists()
        assert cases.exclude(warnings=[]).exists()
        assert Notice.objects.filter(
            case__municipality__ibge_code=ibge, channel="ar", received_on__isnull=True
        ).exists()
    assert Notice.objects.filter(case__municipality__ibge_code="3533908", channel="edital").exists()
    assert Notice.objects.filter(case__municipality__ibge_code="3148103", channel="edital").exists()
    assert InfractionCase.objects.filter(already_punished_as_traffic_only=True).count() == 1
    total = InfractionCase.objects.count()
    seed_demo()
    assert InfractionCase.objects.count() == total
