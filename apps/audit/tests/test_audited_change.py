"""audited_change: one event for the change a block makes to a row, as the services wrote it by hand."""

from __future__ import annotations

import pytest
from django.db import transaction

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.audit.services import audited_change
from apps.tenancy.choices import Role
from apps.tenancy.models import Membership

pytestmark = pytest.mark.django_db


def test_it_records_the_snapshots_around_the_block(analyst_olimpia: User) -> None:
    row = Membership.objects.get(user=analyst_olimpia)
    events = AuditEvent.objects.count()
    with (
        transaction.atomic(),
        audited_change(
            row, actor=analyst_olimpia, action=lambda: f"membership.{row.role}", extra={"reason": "teste"}
        ),
    ):
        row.role = Role.INSPECTOR
        row.save(update_fields=["role"])
    event = AuditEvent.objects.latest("pk")
    assert AuditEvent.objects.count() == events + 1
    assert (event.action, event.chain, event.object_id) == (
        f"membership.{Role.INSPECTOR}",
        "3533908",
        str(row.pk),
    )
    assert event.before == {"user_id": analyst_olimpia.pk, "municipality": "3533908", "role": Role.ANALYST}
    assert event.after == {**row.audit_snapshot(), "reason": "teste"}


def test_a_block_that_raises_records_nothing(analyst_olimpia: User) -> None:
    row = Membership.objects.get(user=analyst_olimpia)
    events = AuditEvent.objects.count()
    with (
        pytest.raises(ValueError),
        transaction.atomic(),
        audited_change(row, actor=analyst_olimpia, action="membership.change"),
    ):
        raise ValueError("refused")
    assert AuditEvent.objects.count() == events
