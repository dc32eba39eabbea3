from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.audit import services as audit_services
from apps.audit.models import AuditEvent
from apps.tenancy import services
from apps.tenancy.choices import Role
from apps.tenancy.models import Membership, Municipality

pytestmark = pytest.mark.django_db


def test_it_records_municipality_creation_in_its_own_chain(olimpia: Municipality) -> None:
    event = AuditEvent.objects.get(action="municipality.create")
    assert event.municipality == olimpia
    assert event.chain == "3533908"
    assert event.seq == 1
    assert event.after["regimes"] == ["olimpia_sp_escolar"]  # type: ignore[index]
    assert event.actor_name == "sistema"


def test_it_records_who_granted_and_revoked_a_role(
    admin_olimpia: User, outsider: User, olimpia: Municipality
) -> None:
    membership = services.membership_grant(
        actor=admin_olimpia, user=outsider, municipality=olimpia, role="analyst"
    )
    services.membership_revoke(actor=admin_olimpia, membership=membership)
    grant, revoke = AuditEvent.objects.filter(
        action__startswith="membership.", actor_id=admin_olimpia.pk
    ).order_by("seq")
    assert (grant.action, revoke.action) == ("membership.grant", "membership.revoke")
    assert grant.actor_name == "Otto Administrador"
    assert revoke.before == {"user_id": outsider.pk, "municipality": "3533908", "role": "analyst"}
    assert not Membership.objects.filter(user=outsider).exists()


def test_it_grants_an_already_held_role_without_a_new_event(
    analyst_olimpia: User, olimpia: Municipality
) -> None:
    before = AuditEvent.objects.count()
    services.membership_grant(actor=None, user=analyst_olimpia, municipality=olimpia, role=Role.ANALYST)
    assert AuditEvent.objects.count() == before
    assert Membership.objects.filter(user=analyst_olimpia).count() == 1


def test_it_rolls_the_audit_row_back_with_a_failing_service(
    monkeypatch: pytest.MonkeyPatch, outsider: User, olimpia: Municipality
) -> None:
    def record_then_fail(**kwargs: Any) -> None:
        audit_services.audit_record(**kwargs)
        raise RuntimeError("failure after the audit row was written")

    monkeypatch.setattr(services, "audit_record", record_then_fail)
    events_before = AuditEvent.objects.count()
    with pytest.raises(RuntimeError):
        services.membership_grant(actor=None, user=outsider, municipality=olimpia, role=Role.FINANCE)
    assert AuditEvent.objects.count() == events_before
    assert not Membership.objects.filter(user=outsider).exists()
