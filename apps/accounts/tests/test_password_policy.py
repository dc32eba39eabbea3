"""Password policy (issue 10: `1234567890` and `senha12345` were accepted by user_create)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.accounts.services import user_create, user_set_password
from apps.audit.models import AuditEvent
from conftest import PERSONA_PASSWORD

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("1234567890", "muito curta"),
        ("senha12345", "muito curta"),
        ("123456789012", "inteiramente numérica"),
        ("qwerty123456", "muito comum"),
        ("maria.souza.1990", "parecida"),
    ],
)
def test_user_create_refuses_a_weak_password_in_portuguese(password: str, message: str) -> None:
    with pytest.raises(ValidationError) as error:
        user_create(actor=None, username="maria.souza.1990", password=password, full_name="Maria Souza")
    assert message in " ".join(error.value.message_dict["password"])
    assert not User.objects.filter(username="maria.souza.1990").exists()


def test_user_create_reports_the_password_and_the_cpf_together() -> None:
    with pytest.raises(ValidationError) as error:
        user_create(actor=None, username="x", password="1234567890", full_name="X", cpf="52998224724")
    assert set(error.value.message_dict) == {"password", "cpf"}


def test_user_create_accepts_a_long_uncommon_password() -> None:
    user = user_create(actor=None, username="joana", password="trem-azul-de-ferro", full_name="Joana")
    assert user.check_password("trem-azul-de-ferro")


def test_user_set_password_validates_and_audits(analyst_olimpia: User) -> None:
    with pytest.raises(ValidationError):
        user_set_password(actor=None, user=analyst_olimpia, password="senha12345")
    analyst_olimpia.refresh_from_db()
    assert analyst_olimpia.check_password(PERSONA_PASSWORD)
    user_set_password(actor=None, user=analyst_olimpia, password="outra-frase-bem-longa")
    event = AuditEvent.objects.get(action="user.password_set", object_id=str(analyst_olimpia.pk))
    assert "outra-frase" not in str(event.after) and "outra-frase" not in str(event.before)


def test_the_password_change_screen_refuses_a_weak_password(analyst_olimpia_client: Client) -> None:
    response = analyst_olimpia_client.post(
        reverse("password_change"),
        {"old_password": PERSONA_PASSWORD, "new_password1": "senha12345", "new_password2": "senha12345"},
    )
    assert response.status_code == 200
    assert "Esta senha é muito curta" in response.content.decode()


def test_the_password_change_screen_changes_it_keeps_the_session_and_audits(
    analyst_olimpia_client: Client,
    analyst_olimpia: User,
    mailoutbox: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    User.objects.filter(pk=analyst_olimpia.pk).update(email="ana@olimpia.sp.gov.br")
    new = "caminho-de-pedra-77"
    with django_capture_on_commit_callbacks(execute=True):
        response = analyst_olimpia_client.post(
            reverse("password_change"),
            {"old_password": PERSONA_PASSWORD, "new_password1": new, "new_password2": new},
            follow=True,
        )
    assert "Senha alterada" in response.content.decode()
    analyst_olimpia.refresh_from_db()
    assert analyst_olimpia.check_password(new)
    assert AuditEvent.objects.filter(
        action="user.password_change", object_id=str(analyst_olimpia.pk)
    ).exists()
    assert analyst_olimpia_client.get(reverse("account_security")).status_code == 200
    assert [m.subject for m in mailoutbox] == ["Outorga: sua senha foi alterada"]


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("aaaaaaaaaaaa", "repete caracteres"),
        ("abcdefghijkl", "sequência"),
        ("qwertyuiopas", "Senha fácil de adivinhar"),  # a keyboard walk, and a leaked password
        ("Flamengo2024!", "Senha fácil de adivinhar"),  # a common Brazilian word (data/senhas-comuns-br.txt)
        ("teixeira52998224724", "Senha fácil de adivinhar"),  # the user's own name and CPF
    ],
)
def test_a_guessable_password_of_twelve_or_more_is_refused(password: str, reason: str) -> None:
    with pytest.raises(ValidationError) as error:
        user_create(
            actor=None,
            username="rafael.teixeira",
            password=password,
            full_name="Rafael Teixeira",
            cpf="52998224724",
        )
    assert reason in " ".join(error.value.message_dict["password"])
    assert not User.objects.filter(username="rafael.teixeira").exists()
