"""The demo leaves one portal login per regime, tied to a licensed operator, that opens the portal; re-running
creates nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.licensing.models import Permit
from apps.portal.demo import PORTAL_LOGIN_LABEL
from apps.portal.models import PortalAccount
from apps.tenancy.demo import demo_password, seed_demo

pytestmark = pytest.mark.django_db


def test_a_portal_login_per_regime_that_signs_in(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    log = seed_demo()
    logins = [login for login in log.logins if login.role == PORTAL_LOGIN_LABEL]
    assert {login.username for login in logins} == {
        "olimpia.permissionario",
        "votuporanga.permissionario",
        "patrocinio.permissionario",
        "saojose.permissionario",
    }
    for login in logins:
        account = PortalAccount.objects.get(user__username=login.username)
        assert Permit.objects.filter(operator=account.operator).exists()
        client = Client()
        credentials = {"username": login.username, "password": demo_password(login.username)}
        response = client.post(reverse("portal:login"), credentials, follow=True)
        assert response.redirect_chain[-1][0] == reverse("portal:home")
        assert account.operator.holder_name in response.content.decode()
        assert account.operator.infraction_cases.exists(), login.username
    assert PortalAccount.objects.count() == 4
    seed_demo()
    assert PortalAccount.objects.count() == 4
