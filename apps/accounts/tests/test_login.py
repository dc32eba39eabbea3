from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from apps.accounts.middleware import SESSION_EXPIRED_MESSAGE
from apps.accounts.models import User
from apps.accounts.testing import give_authenticator, next_code
from conftest import PERSONA_PASSWORD

pytestmark = pytest.mark.django_db


def test_it_logs_in_with_username_and_goes_to_the_municipality_home(
    client: Client, analyst_olimpia: User
) -> None:
    response = client.post(
        reverse("login"), {"username": "ana.analista", "password": PERSONA_PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0].startswith(reverse("second_factor_verify"))
    code = next_code(give_authenticator(analyst_olimpia))
    response = client.post(response.redirect_chain[-1][0], {"code": code}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("municipality_home", args=["3533908"])
    assert "Painel de Olímpia" in response.content.decode()


def test_it_answers_a_wrong_password_in_portuguese(client: Client, analyst_olimpia: User) -> None:
    response = client.post(reverse("login"), {"username": "ana.analista", "password": "errada"})
    assert response.status_code == 200
    assert "Usuário ou senha incorretos" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_renders_the_login_page_in_portuguese_with_labels(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()
    assert '<html lang="pt-BR">' in html
    assert '<label for="id_username">Usuário</label>' in html
    assert '<label for="id_password">Senha</label>' in html
    assert "Ir para o conteúdo" in html


def test_it_redirects_anonymous_users_to_login(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_tells_the_user_their_session_expired(client: Client, analyst_olimpia: User) -> None:
    client.force_login(analyst_olimpia)
    client.session.delete()  # what expiry does on the server: the key is no longer known
    response = client.get(reverse("home"), follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("login"))
    assert SESSION_EXPIRED_MESSAGE in response.content.decode()


def test_it_does_not_warn_about_expiry_on_a_first_visit(client: Client) -> None:
    response = client.get(reverse("home"), follow=True)
    assert SESSION_EXPIRED_MESSAGE not in response.content.decode()


def test_it_logs_out_only_by_post(analyst_olimpia_client: Client) -> None:
    assert analyst_olimpia_client.get(reverse("logout")).status_code == 405
    response = analyst_olimpia_client.post(reverse("logout"), follow=True)
    assert "Você saiu do Outorga" in response.content.decode()
    assert SESSION_EXPIRED_MESSAGE not in response.content.decode()
    assert settings.SESSION_COOKIE_NAME not in analyst_olimpia_client.cookies or not (
        analyst_olimpia_client.cookies[settings.SESSION_COOKIE_NAME].value
    )
    assert analyst_olimpia_client.get(reverse("home")).status_code == 302


def test_it_refuses_an_inactive_account(client: Client, analyst_olimpia: User) -> None:
    User.objects.filter(pk=analyst_olimpia.pk).update(is_active=False)
    response = client.post(reverse("login"), {"username": "ana.analista", "password": PERSONA_PASSWORD})
    assert "_auth_user_id" not in client.session
    assert response.status_code == 200


def test_it_sends_an_expired_htmx_request_to_the_login_page_as_a_whole(
    client: Client, analyst_olimpia: User
) -> None:
    client.force_login(analyst_olimpia)
    client.session.delete()
    response = client.get(reverse("municipality_cards", args=["3533908"]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))
    assert response.content == b""
