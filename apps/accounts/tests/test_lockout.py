"""Brute force (issue 10: 30 wrong passwords on /entrar/ and /portal/entrar/, then the right one logged in)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.audit.models import AuditEvent
from conftest import PERSONA_PASSWORD

pytestmark = pytest.mark.django_db

LOCKED = "Acesso bloqueado por excesso de tentativas sem sucesso"


def _try(client: Client, url: str, username: str, password: str, **extra: Any) -> int:
    return client.post(url, {"username": username, "password": password}, **extra).status_code


@pytest.mark.parametrize("login_url", ["login", "portal:login"])
def test_thirty_wrong_passwords_lock_the_account_and_the_right_one_is_refused(
    login_url: str, analyst_olimpia: User
) -> None:
    client, url = Client(), reverse(login_url)
    statuses = [_try(client, url, "ana.analista", f"errada-{n}") for n in range(30)]
    assert statuses[:9] == [200] * 9  # the form's "wrong password" page
    assert set(statuses[9:]) == {429}  # locked from the 10th failure on (AXES_FAILURE_LIMIT)

    response = client.post(url, {"username": "ana.analista", "password": PERSONA_PASSWORD})
    html = response.content.decode()
    assert response.status_code == 429
    assert LOCKED in html and "Tente novamente a partir das" in html
    assert int(response["Retry-After"]) == 15 * 60
    assert "_auth_user_id" not in client.session


def test_the_attempts_are_in_the_audit_trail_without_the_password(analyst_olimpia: User) -> None:
    client, url = Client(), reverse("login")
    for n in range(30):
        _try(client, url, "ana.analista", f"errada-{n}")
    _try(client, url, "ana.analista", PERSONA_PASSWORD)

    failures = AuditEvent.objects.filter(action="auth.login_failed", object_id=str(analyst_olimpia.pk))
    assert failures.count() == 31  # the right password, refused during the lockout, counts as a failure too
    assert AuditEvent.objects.filter(action="auth.locked_out", object_id=str(analyst_olimpia.pk)).exists()
    assert not AuditEvent.objects.filter(action="auth.login").exists()
    everything = str(list(AuditEvent.objects.values_list("before", "after")))
    assert "errada" not in everything and PERSONA_PASSWORD not in everything
    first = failures.first()
    assert first is not None and first.after is not None and first.after["ip"] == "127.0.0.1"


def test_a_locked_account_is_locked_from_another_client_too(analyst_olimpia: User) -> None:
    for n in range(10):
        _try(Client(), reverse("login"), "ana.analista", f"errada-{n}", REMOTE_ADDR="10.0.0.1")
    other = Client()
    response = other.post(
        reverse("login"), {"username": "ana.analista", "password": PERSONA_PASSWORD}, REMOTE_ADDR="10.0.0.2"
    )
    assert response.status_code == 429


def test_a_client_guessing_many_accounts_is_locked_for_all_of_them(analyst_olimpia: User) -> None:
    client = Client()
    for n in range(10):
        _try(client, reverse("login"), f"palpite.{n}", "qualquer-coisa", REMOTE_ADDR="10.0.0.9")
    response = client.post(
        reverse("login"), {"username": "ana.analista", "password": PERSONA_PASSWORD}, REMOTE_ADDR="10.0.0.9"
    )
    assert response.status_code == 429
    # the guessed names are not accounts: they never reach the permanent log
    assert "palpite" not in str(list(AuditEvent.objects.values_list("object_id", "after")))


def test_a_success_before_the_limit_clears_the_count(analyst_olimpia: User) -> None:
    client = Client()
    for n in range(9):
        _try(client, reverse("login"), "ana.analista", f"errada-{n}")
    assert _try(client, reverse("login"), "ana.analista", PERSONA_PASSWORD) == 302
    client.post(reverse("logout"))
    for n in range(9):
        assert _try(client, reverse("login"), "ana.analista", f"errada-{n}") == 200


def test_login_and_logout_are_audited() -> None:
    user = user_create(
        actor=None, username="op.portal", password="frase-do-portal-1", full_name="Op", kind="operator"
    )
    client = Client()
    assert _try(client, reverse("portal:login"), "op.portal", "frase-do-portal-1") == 302
    client.post(reverse("logout"))
    actions = list(AuditEvent.objects.filter(object_id=str(user.pk)).values_list("action", flat=True))
    assert "auth.login" in actions and "auth.logout" in actions


def test_the_lockout_page_carries_the_security_headers(analyst_olimpia: User) -> None:
    client = Client()
    for n in range(10):
        _try(client, reverse("login"), "ana.analista", f"errada-{n}")
    response = client.post(reverse("login"), {"username": "ana.analista", "password": PERSONA_PASSWORD})
    assert response.status_code == 429
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert "Permissions-Policy" in response
