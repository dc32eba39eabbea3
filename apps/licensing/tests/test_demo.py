"""The demo seeder: every application state and active/suspended/expired permits where the law can decide,
through the services; a second run creates nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db.models import Count

from apps.licensing.models import Application, Permit
from apps.tenancy.demo import seed_demo

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _votuporanga_fleet_cap() -> None:
    """Not the tests' cap: the demo must rely on the decree lawconfig's demo seeder records."""


def _states(model: Any, ibge: str) -> set[str]:
    return set(model.objects.filter(municipality__ibge_code=ibge).values_list("state", flat=True))


def test_demo_shows_every_state_and_is_idempotent() -> None:
    seed_demo()
    olimpia = _states(Application, "3533908")
    assert olimpia >= {
        "draft",
        "submitted",
        "in_analysis",
        "pending_documents",
        "awaiting_inspection",
        "approved",
        "denied",
        "archived",
    }
    assert _states(Permit, "3533908") == {"active", "suspended", "expired"}
    # Patrocínio's law took effect on 22/12/2025: no yearly authorization under it can have expired yet.
    assert _states(Permit, "3148103") >= {"active", "suspended"}
    # Votuporanga's fleet cap (art. 4º-A) comes from lawconfig's demo decree: its permits are decided too.
    assert _states(Application, "3557105") >= {"awaiting_inspection", "approved", "denied"}
    assert _states(Permit, "3557105") >= {"active", "suspended"}
    _assert_taxi_permits_renew_in_the_plate_month()
    counts = dict(Application.objects.values_list("municipality__ibge_code").annotate(n=Count("id")))
    seed_demo()
    assert dict(Application.objects.values_list("municipality__ibge_code").annotate(n=Count("id"))) == counts


def _assert_taxi_permits_renew_in_the_plate_month() -> None:
    """São José dos Campos (Lei 8.698/2012): lawful taxi permits under the decree's fleet (art. 19), each valid
    until the last day of the renewal month its plate's final digit gives (art. 6º), in the following year."""
    months = {0: 1, 1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5}
    permits = Permit.objects.filter(municipality__ibge_code="3549904", state="active")
    assert permits.exists()
    for permit in permits:
        month = months[int(permit.vehicle.plate[-1])]
        assert permit.valid_until is not None
        assert (permit.valid_until.year, permit.valid_until.month) == (permit.valid_from.year + 1, month)
        assert (permit.valid_until + dt.timedelta(days=1)).day == 1
