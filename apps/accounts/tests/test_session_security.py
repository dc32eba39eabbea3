"""Inactivity timeout and re-authentication before sensitive actions."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.decorators import REAUTHENTICATION_MESSAGE
from apps.accounts.models import User
from apps.accounts.session import AUTH_CONFIRMED_AT_KEY, LAST_SEEN_KEY
from apps.accounts.testing import give_authenticator, next_code
from apps.audit.models import AuditEvent
from apps.lawconfig.models import MunicipalClosure
from apps.tenancy.models import Municipality
from conftest import PERSONA_PASSWORD

pytestmark = pytest.mark.django_db


def _age_session(client: Client, key: str, minutes: float) -> None:
    session = client.session
    session[key] = time.time() - minutes * 60
    session.save()


def test_an_idle_session_is_closed_with_a_portuguese_message(
    analyst_olimpia_client: Client, analyst_olimpia: User, settings: Any
) -> None:
    settings.SESSION_IDLE_TIMEOUT_MINUTES = 30
    home = reverse("municipality_home", args=["3533908"])
    assert analyst_olimpia_client.get(home).status_code == 200
    _age_session(analyst_olimpia_client, LAST_SEEN_KEY, 31)
    response = analyst_olimpia_client.get(home, follow=True)
    assert response.redirect_chain[0][0] == f"{reverse('login')}?next=%2Fmunicipios%2F3533908%2F"
    assert "encerrada depois de 30 minutos sem atividade" in response.content.decode()
    assert "_auth_user_id" not in analyst_olimpia_client.session
    event = AuditEvent.objects.filter(action="auth.logout", object_id=str(analyst_olimpia.pk)).get()
    assert event.after == {"ip": "127.0.0.1", "reason": "idle"}


def test_an_idle_api_session_gets_json(analyst_olimpia_client: Client, settings: Any) -> None:
    _age_session(analyst_olimpia_client, LAST_SEEN_KEY, settings.SESSION_IDLE_TIMEOUT_MINUTES + 1)
    response = analyst_olimpia_client.get("/api/v1/municipalities/")
    assert response.status_code == 401
    assert "sem atividade" in response.json()["detail"]


def test_activity_keeps_the_session_open(analyst_olimpia_client: Client, settings: Any) -> None:
    settings.SESSION_IDLE_TIMEOUT_MINUTES = 30
    home = reverse("municipality_home", args=["3533908"])
    _age_session(analyst_olimpia_client, LAST_SEEN_KEY, 29)
    assert analyst_olimpia_client.get(home).status_code == 200
    assert time.time() - analyst_olimpia_client.session[LAST_SEEN_KEY] < 5  # the clock restarted
    assert analyst_olimpia_client.get(home).status_code == 200


def test_an_idle_portal_session_goes_back_to_the_portal_login(settings: Any) -> None:
    from apps.accounts.services import user_create

    user = user_create(
        actor=None, username="op.portal", password="frase-do-portal-1", full_name="Op", kind="operator"
    )
    client = Client()
    client.force_login(user)
    client.get(reverse("account_security"))
    _age_session(client, LAST_SEEN_KEY, settings.SESSION_IDLE_TIMEOUT_MINUTES + 1)
    assert client.get(reverse("portal:home"))["Location"].startswith(reverse("portal:login"))


def _closure_post(client: Client) -> Any:
    url = reverse("lawconfig:closure_add", args=["3533908"])
    overview = reverse("lawconfig:overview", args=["3533908"])
    return client.post(
        url,
        {"date": "2026-12-24", "description": "Ponto facultativo (Decreto 1/2026)", "kind": "closure"},
        HTTP_REFERER=f"http://testserver{overview}",
    )


def test_changing_the_law_configuration_needs_a_recent_password_and_code(
    admin_olimpia_client: Client, admin_olimpia: User, olimpia: Municipality
) -> None:
    _age_session(admin_olimpia_client, AUTH_CONFIRMED_AT_KEY, 16)
    response = _closure_post(admin_olimpia_client)
    overview = reverse("lawconfig:overview", args=["3533908"])
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('reauthenticate')}?next={overview.replace('/', '%2F')}"
    assert not MunicipalClosure.objects.exists()

    page = admin_olimpia_client.get(response["Location"])
    assert REAUTHENTICATION_MESSAGE in page.content.decode()
    wrong = admin_olimpia_client.post(
        response["Location"],
        {"password": "nao-e-a-senha", "code": next_code(give_authenticator(admin_olimpia))},
    )
    assert "Senha incorreta" in wrong.content.decode()
    before = admin_olimpia_client.session.session_key
    confirmed = admin_olimpia_client.post(
        response["Location"],
        {"password": PERSONA_PASSWORD, "code": next_code(give_authenticator(admin_olimpia))},
    )
    assert confirmed["Location"] == overview
    assert admin_olimpia_client.session.session_key != before  # a privilege change: a new session id
    assert AuditEvent.objects.filter(action="auth.reauthenticated", object_id=str(admin_olimpia.pk)).exists()

    assert _closure_post(admin_olimpia_client).status_code == 302
    assert MunicipalClosure.objects.count() == 1


def test_re_authentication_needs_the_code_too(admin_olimpia_client: Client) -> None:
    _age_session(admin_olimpia_client, AUTH_CONFIRMED_AT_KEY, 16)
    url = f"{reverse('reauthenticate')}?next=/"
    response = admin_olimpia_client.post(url, {"password": PERSONA_PASSWORD, "code": "000000"})
    assert "Código incorreto" in response.content.decode()
    assert _closure_post(admin_olimpia_client)["Location"].startswith(reverse("reauthenticate"))


def test_a_harmless_action_on_the_same_view_does_not_ask(analyst_olimpia_client: Client) -> None:
    _age_session(analyst_olimpia_client, AUTH_CONFIRMED_AT_KEY, 16)
    analyse = reverse("licensing:application_action", args=["3533908", 999, "analisar"])
    assert analyst_olimpia_client.post(analyse).status_code == 404  # reached the view: no such application


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("licensing:application_action", ["3533908", 999, "deferir"]),
        ("dueprocess:judge", ["3533908", 1]),
        ("dueprocess:finalize", ["3533908", 1]),
        ("finance:payment_register", ["3533908", 1]),
        ("lawconfig:interpretation_choose", ["3533908", "INT-X"]),
        ("lawconfig:closure_remove", ["3533908", 1]),
        ("tenancy:member_role_add", ["3533908", 99999]),
        ("tenancy:member_role_remove", ["3533908", 99999, 99999]),
        ("tenancy:member_set_active", ["3533908", 99999]),
    ],
)
def test_what_the_user_may_not_reach_is_404_before_any_prompt(
    admin_olimpia_client: Client, name: str, args: list[Any]
) -> None:
    """The view checks the role and the object first; the prompt comes from the sensitive service itself
    (apps.accounts.stepup), which a 404 never reaches."""
    _age_session(admin_olimpia_client, AUTH_CONFIRMED_AT_KEY, 16)
    response = admin_olimpia_client.post(reverse(name, args=args))
    assert response.status_code == 404
