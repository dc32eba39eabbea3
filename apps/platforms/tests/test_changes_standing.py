"""The feed learns every status change: a lapsed document and its renewal, a suspension that ran its course."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from apps.audit.models import AuditEvent
from apps.licensing import services
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.licensing.sweep import lift_suspensions, record_standings
from apps.platforms.models import StatusChange
from apps.platforms.services import changes
from apps.platforms.tests.conftest import post_json, url
from apps.registry.services import driver_update
from apps.tenancy.models import Municipality

pytestmark = [pytest.mark.django_db, pytest.mark.local_clock]


def _feed(api: Client, ibge: str) -> list[dict[str, object]]:
    return list(api.get(url(ibge, "changes/?since=0")).json()["results"])


def test_a_lapsed_cnh_and_its_renewal_are_audited_checked_and_fed(
    api: Client, patrocinio: Municipality, driver_case: Case, patrocinio_permit: Permit, today: dt.date
) -> None:
    driver_update(actor=None, driver=driver_case.driver, as_of=today, cnh_expiry=today - dt.timedelta(days=1))
    after = AuditEvent.objects.get(action="permit.standing").after or {}
    assert after["status"] == "irregular" and "art. 12" in " ".join(after["articles"])
    cpf = driver_case.person.cpf
    [answer] = post_json(api, url(patrocinio.ibge_code, "checks/"), {"drivers": [cpf]}).json()["drivers"]
    assert (answer["authorized"], answer["status"]) == (False, "irregular")
    assert "CNH" in answer["reason"] and any("art. 4º, I, b" in text for text in answer["articles"])
    [irregular] = [c for c in _feed(api, patrocinio.ibge_code) if c["kind"] == "irregular"]
    assert irregular["effective_on"] == today.isoformat() and "vencido desde" in str(irregular["reason"])

    driver_update(
        actor=None, driver=driver_case.driver, as_of=today, cnh_expiry=today + dt.timedelta(days=900)
    )
    [answer] = post_json(api, url(patrocinio.ibge_code, "checks/"), {"drivers": [cpf]}).json()["drivers"]
    assert (answer["authorized"], answer["status"], answer["reason"]) == (True, "regular", "")
    kinds = [c["kind"] for c in _feed(api, patrocinio.ibge_code)]
    assert kinds == ["issued", "irregular", "regularized"]


def test_the_sweep_records_a_lapse_once_and_the_feed_carries_it_once(
    patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    last_day = patrocinio_permit.vehicle.documents.get(kind="crlv").valid_until
    assert last_day is not None
    later = last_day + dt.timedelta(days=1)
    assert record_standings(later) == 1 and record_standings(later) == 0
    changes.capture(patrocinio, as_of=later)
    changes.capture(patrocinio, as_of=later)
    assert list(StatusChange.objects.filter(kind="irregular").values_list("effective_on", flat=True)) == [
        later
    ]


def test_a_suspension_that_ran_its_course_is_fed_as_lifted_the_day_after(
    patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    last_day = today - dt.timedelta(days=1)
    services.permit_suspend(
        permit=patrocinio_permit,
        actor=None,
        as_of=today - dt.timedelta(days=3),
        until=last_day,
        reason="Auto 7",
    )
    lift_suspensions(last_day)
    changes.capture(patrocinio, as_of=last_day)
    assert not StatusChange.objects.filter(kind="lifted").exists()
    lift_suspensions(today)
    changes.capture(patrocinio, as_of=today)
    changes.capture(patrocinio, as_of=today + dt.timedelta(days=5))
    lifted = StatusChange.objects.filter(kind="lifted")
    assert [(c.permit_id, c.effective_on) for c in lifted] == [(patrocinio_permit.pk, today)]


def test_a_suspension_lifted_early_is_fed_once_from_the_audit_trail(
    patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    until = today + dt.timedelta(days=30)
    services.permit_suspend(permit=patrocinio_permit, actor=None, as_of=today, until=until, reason="Cautelar")
    services.permit_reactivate(permit=patrocinio_permit, actor=None, as_of=today, reason="Auto cancelado")
    changes.capture(patrocinio, as_of=until + dt.timedelta(days=3))
    assert [(c.kind, c.effective_on) for c in StatusChange.objects.exclude(kind="issued")] == [
        ("suspended", today),
        ("lifted", today),
    ]
