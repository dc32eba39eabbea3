"""accounts, tenancy and web sit below audit and write their audit events through apps.accounts.auditing: the
events land in the trail as any other app's, and an act with no writer installed is refused, never unaudited."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.accounts import auditing
from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.audit.models import AuditEvent

pytestmark = pytest.mark.django_db


def test_an_account_created_is_in_the_audit_trail() -> None:
    user = user_create(actor=None, username="bia.nova", password=None, full_name="Bia Nova")

    event = AuditEvent.objects.get(action="user.create", object_id=str(user.pk))
    assert (event.object_type, event.actor_name, event.chain) == ("accounts.user", "sistema", "global")


def test_an_act_with_no_audit_writer_installed_is_refused_and_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(auditing, "_installed", [])

    with pytest.raises(ImproperlyConfigured, match="no audit writers installed"):
        user_create(actor=None, username="bia.nova", password=None, full_name="Bia Nova")

    assert not User.objects.filter(username="bia.nova").exists()
    assert not AuditEvent.objects.filter(action="user.create").exists()
