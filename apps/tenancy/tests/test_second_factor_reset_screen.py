"""The municipality's administrator clears a team member's lost second factor from the team screen: only after
confirming their own identity recently, audited, the owner told by e-mail, and the member enrols again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.models import RecoveryCodeDevice, User
from apps.accounts.services import recovery_codes_generate
from apps.accounts.session import AUTH_CONFIRMED_AT_KEY
from apps.accounts.testing import give_authenticator
from apps.audit.models import AuditEvent
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from conftest import PERSONA_PASSWORD

pytestmark = pytest.mark.django_db


def reset_url(member: User, ibge_code: str = "3533908") -> str:
    return reverse("tenancy:member_second_factor_reset", args=[ibge_code, member.pk])


@pytest.fixture
def lost_phone(analyst_olimpia: User) -> User:
    """Ana lost her phone: an authenticator and recovery codes she can no longer reach."""
    analyst_olimpia.email = "ana@olimpia.sp.gov.br"
    analyst_olimpia.save(update_fields=["email"])
    give_authenticator(analyst_olimpia)
    recovery_codes_generate(actor=analyst_olimpia, user=analyst_olimpia)
    return analyst_olimpia


def test_the_administrator_clears_it_and_the_member_enrols_again(
    admin_olimpia_client: Client,
    admin_olimpia: User,
    lost_phone: User,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    page = admin_olimpia_client.get(reset_url(lost_phone))
    assert page.status_code == 200 and "Zerar o segundo fator de" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_olimpia_client.post(reset_url(lost_phone), follow=True)
    assert "zerado" in response.content.decode()
    assert not TOTPDevice.objects.filter(user=lost_phone).exists()
    assert not RecoveryCodeDevice.objects.filter(user=lost_phone).exists()
    event = AuditEvent.objects.get(action="mfa.reset", object_id=str(lost_phone.pk))
    assert event.actor_id == admin_olimpia.pk and event.after is not None
    assert event.after["municipality"] == "3533908" and len(event.after["devices"]) == 1
    (message,) = mail.outbox
    assert message.to == ["ana@olimpia.sp.gov.br"] and "Otto Administrador" in message.body

    client = Client()
    client.post(reverse("login"), {"username": lost_phone.username, "password": PERSONA_PASSWORD})
    assert client.get(reverse("home"))["Location"].startswith(reverse("second_factor_enrol"))


def test_it_asks_the_administrator_to_confirm_their_identity_first(
    admin_olimpia_client: Client, lost_phone: User
) -> None:
    session = admin_olimpia_client.session
    session[AUTH_CONFIRMED_AT_KEY] = 0
    session.save()
    response = admin_olimpia_client.post(reset_url(lost_phone))
    assert response.status_code == 302 and response["Location"].startswith(reverse("reauthenticate"))
    assert TOTPDevice.objects.filter(user=lost_phone).exists()


def test_only_the_team_s_administrator_may_and_only_for_their_team(
    analyst_olimpia_client: Client,
    admin_olimpia_client: Client,
    auditor_olimpia: User,
    lost_phone: User,
    make_staff: Callable[..., User],
    votuporanga: Municipality,
) -> None:
    assert analyst_olimpia_client.post(reset_url(auditor_olimpia)).status_code == 404
    stranger = make_staff("vera.votuporanga", (votuporanga, Role.ANALYST))
    give_authenticator(stranger)
    assert admin_olimpia_client.post(reset_url(stranger)).status_code == 404
    assert admin_olimpia_client.post(reset_url(stranger, votuporanga.ibge_code)).status_code == 404
    assert TOTPDevice.objects.filter(user=stranger).exists()
    assert not AuditEvent.objects.filter(action="mfa.reset").exists()


def test_the_administrator_cannot_clear_their_own(admin_olimpia_client: Client, admin_olimpia: User) -> None:
    response = admin_olimpia_client.post(reset_url(admin_olimpia), follow=True)
    assert "use “Minha conta”" in response.content.decode()
    assert TOTPDevice.objects.filter(user=admin_olimpia).exists()


def test_the_team_page_links_to_it(admin_olimpia_client: Client, lost_phone: User) -> None:
    page = admin_olimpia_client.get(reverse("tenancy:member_roles", args=["3533908", lost_phone.pk]))
    assert reset_url(lost_phone) in page.content.decode()
