"""Second factor: mandatory for staff, optional for portal users, audited."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.models import RecoveryCode, User
from apps.accounts.services import user_create
from apps.accounts.testing import give_authenticator, next_code
from apps.audit.models import AuditEvent
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from conftest import PERSONA_PASSWORD

pytestmark = pytest.mark.django_db


def _password_only(
    client: Client, username: str, password: str = PERSONA_PASSWORD, url: str = "login"
) -> None:
    response = client.post(reverse(url), {"username": username, "password": password})
    assert response.status_code == 302, response.content.decode()[:500]


def _wait_out_the_throttle(device: TOTPDevice) -> None:
    """django-otp waits 1 s, 2 s, 4 s... after each wrong code; a test moves the clock instead of sleeping."""
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_timestamp=None)


@pytest.fixture
def new_staff(make_staff: Callable[..., User], olimpia: Municipality) -> User:
    """A staff member who never enrolled an authenticator (make_staff gives one; this one has it removed)."""
    user = make_staff("nina.nova", (olimpia, Role.ANALYST), full_name="Nina Nova")
    TOTPDevice.objects.filter(user=user).delete()
    return user


def test_staff_without_an_authenticator_is_sent_to_enrol_and_can_reach_nothing_else(new_staff: User) -> None:
    client = Client()
    response = client.post(reverse("login"), {"username": "nina.nova", "password": PERSONA_PASSWORD})
    assert response["Location"].startswith(reverse("second_factor_enrol"))
    for url in (
        reverse("home"),
        reverse("municipality_home", args=["3533908"]),
        reverse("account_security"),
        reverse("password_change"),
        reverse("licensing:permit_list", args=["3533908"]),
    ):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("second_factor_enrol")), url
    assert client.get("/api/v1/municipalities/").status_code == 403
    htmx = client.get(reverse("municipality_cards", args=["3533908"]), HTTP_HX_REQUEST="true")
    assert htmx["HX-Redirect"].startswith(reverse("second_factor_enrol"))


def test_staff_enrols_with_the_qr_code_or_the_key_and_gets_recovery_codes(new_staff: User) -> None:
    client = Client()
    _password_only(client, "nina.nova")
    page = client.get(reverse("second_factor_enrol")).content.decode()
    assert "<svg" in page and "Chave para digitar" in page
    device = TOTPDevice.objects.get(user=new_staff, confirmed=False)
    shown_key = re.search(r'data-testid="manual-key">([A-Z2-7 ]+)<', page).group(1)  # type: ignore[union-attr]
    assert shown_key.replace(" ", "") in device.config_url

    wrong = client.post(reverse("second_factor_enrol"), {"code": "000000"})
    assert "Código incorreto" in wrong.content.decode()
    assert (
        "Aguarde alguns segundos"
        in client.post(reverse("second_factor_enrol"), {"code": "000000"}).content.decode()
    )
    _wait_out_the_throttle(device)
    response = client.post(reverse("second_factor_enrol"), {"code": next_code(device), "next": "/"})
    html = response.content.decode()
    assert "Códigos de recuperação" in html
    assert (
        len(re.findall(r"<li><code>[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}</code></li>", html)) == 10
    )
    assert client.get(reverse("municipality_home", args=["3533908"])).status_code == 200
    assert AuditEvent.objects.filter(action="mfa.device_add", object_id=str(new_staff.pk)).exists()
    assert AuditEvent.objects.filter(
        action="mfa.recovery_codes_generate", object_id=str(new_staff.pk)
    ).exists()


def test_staff_with_an_authenticator_types_the_code_after_the_password(analyst_olimpia: User) -> None:
    client = Client()
    _password_only(client, "ana.analista")
    assert client.get(reverse("home"))["Location"].startswith(reverse("second_factor_verify"))
    wrong = client.post(reverse("second_factor_verify"), {"code": "123456"})
    assert "Código incorreto ou vencido" in wrong.content.decode()
    assert AuditEvent.objects.filter(
        action="auth.second_factor_failed", object_id=str(analyst_olimpia.pk)
    ).exists()
    device = give_authenticator(analyst_olimpia)
    _wait_out_the_throttle(device)
    response = client.post(reverse("second_factor_verify"), {"code": next_code(device), "next": "/"})
    assert response.status_code == 302
    assert client.get(reverse("municipality_home", args=["3533908"])).status_code == 200
    assert AuditEvent.objects.filter(
        action="auth.second_factor_verified", object_id=str(analyst_olimpia.pk)
    ).exists()


def test_a_code_cannot_be_used_twice(analyst_olimpia: User) -> None:
    device = give_authenticator(analyst_olimpia)
    code = next_code(device)
    first, second = Client(), Client()
    _password_only(first, "ana.analista")
    _password_only(second, "ana.analista")
    assert first.post(reverse("second_factor_verify"), {"code": code}).status_code == 302
    assert "Código incorreto" in second.post(reverse("second_factor_verify"), {"code": code}).content.decode()


def test_a_recovery_code_works_once_and_is_audited(
    analyst_olimpia_client: Client, analyst_olimpia: User
) -> None:
    response = analyst_olimpia_client.post(reverse("recovery_codes_regenerate"))
    codes = re.findall(r"<li><code>([a-z2-7-]+)</code></li>", response.content.decode())
    assert len(codes) == 10
    client = Client()
    _password_only(client, "ana.analista")
    response = client.post(reverse("second_factor_verify"), {"code": codes[0].upper()}, follow=True)
    assert "restam 9" in response.content.decode()
    event = AuditEvent.objects.get(action="auth.recovery_code_used", object_id=str(analyst_olimpia.pk))
    assert event.after is not None and event.after["recovery_codes_left"] == 9
    assert codes[0].replace("-", "") not in str(event.after)
    again = Client()
    _password_only(again, "ana.analista")
    assert (
        "Código incorreto" in again.post(reverse("second_factor_verify"), {"code": codes[0]}).content.decode()
    )
    assert RecoveryCode.objects.filter(device__user=analyst_olimpia).count() == 9


def test_a_portal_user_without_an_authenticator_is_not_asked_for_one() -> None:
    user_create(
        actor=None, username="op.portal", password="frase-do-portal-1", full_name="Op", kind="operator"
    )
    client = Client()
    _password_only(client, "op.portal", "frase-do-portal-1", url="portal:login")
    assert client.get(reverse("account_security")).status_code == 200


def test_a_portal_user_who_turned_it_on_must_type_the_code() -> None:
    user = user_create(
        actor=None, username="op.portal", password="frase-do-portal-1", full_name="Op", kind="operator"
    )
    device = give_authenticator(user)
    client = Client()
    _password_only(client, "op.portal", "frase-do-portal-1", url="portal:login")
    assert client.get(reverse("portal:home"))["Location"].startswith(reverse("second_factor_verify"))
    code = f"{totp(device.bin_key):06d}"
    assert client.post(reverse("second_factor_verify"), {"code": code}).status_code == 302
    assert client.get(reverse("account_security")).status_code == 200


def test_staff_cannot_remove_their_only_authenticator(
    analyst_olimpia_client: Client, analyst_olimpia: User
) -> None:
    device = give_authenticator(analyst_olimpia)
    response = analyst_olimpia_client.post(reverse("authenticator_remove", args=[device.pk]), follow=True)
    assert "precisam de um aplicativo autenticador" in response.content.decode()
    assert TOTPDevice.objects.filter(pk=device.pk).exists()


def test_a_portal_user_removes_theirs_and_it_is_audited() -> None:
    user = user_create(
        actor=None, username="op.portal", password="frase-do-portal-1", full_name="Op", kind="operator"
    )
    device = give_authenticator(user)
    client = Client()
    client.force_login(user)
    client.post(reverse("authenticator_remove", args=[device.pk]))
    assert not TOTPDevice.objects.filter(user=user).exists()
    assert AuditEvent.objects.filter(action="mfa.device_remove", object_id=str(user.pk)).exists()


def test_a_lost_phone_is_reset_by_command_and_the_user_enrols_again(analyst_olimpia: User) -> None:
    from io import StringIO

    from django.core.management import call_command

    call_command("second_factor_reset", "ana.analista", stdout=StringIO())
    assert not TOTPDevice.objects.filter(user=analyst_olimpia).exists()
    assert AuditEvent.objects.filter(action="mfa.reset", object_id=str(analyst_olimpia.pk)).exists()
    client = Client()
    _password_only(client, "ana.analista")
    assert client.get(reverse("home"))["Location"].startswith(reverse("second_factor_enrol"))


def test_the_session_gets_a_new_id_once_the_code_is_accepted(analyst_olimpia: User) -> None:
    client = Client()
    _password_only(client, "ana.analista")
    after_password = client.session.session_key
    device = give_authenticator(analyst_olimpia)
    assert client.post(reverse("second_factor_verify"), {"code": next_code(device)}).status_code == 302
    assert client.session.session_key != after_password
    assert client.get(reverse("municipality_home", args=["3533908"])).status_code == 200


def test_every_wrong_or_throttled_code_is_one_audit_row(analyst_olimpia: User) -> None:
    client = Client()
    _password_only(client, "ana.analista")
    for _ in range(12):
        page = client.post(reverse("second_factor_verify"), {"code": "123456"}).content.decode()
        assert "Código incorreto" in page or "Aguarde alguns segundos" in page
    mine = AuditEvent.objects.filter(object_id=str(analyst_olimpia.pk))
    failed = mine.filter(action="auth.second_factor_failed").count()
    locked = mine.filter(action="auth.second_factor_locked_out").count()
    assert failed >= 1 and locked >= 1 and failed + locked == 12
