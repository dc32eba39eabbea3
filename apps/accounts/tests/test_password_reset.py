"""Password reset by e-mail, end to end: request, mail after commit, token link, validated new password."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.jobs.models import OutboundMail
from apps.jobs.services import outbox_deliver
from conftest import PERSONA_PASSWORD

pytestmark = pytest.mark.django_db


def _request_link(client: Client, email: str, capture: Any) -> Any:
    with capture(execute=False) as callbacks:
        response = client.post(reverse("password_reset"), {"email": email}, follow=True)
    outbox_deliver()  # the worker's turn: the request itself sends nothing
    return response, callbacks


def test_a_user_resets_the_password_through_the_e_mailed_link(
    analyst_olimpia: User, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    User.objects.filter(pk=analyst_olimpia.pk).update(email="ana@olimpia.sp.gov.br")
    client = Client()
    response, callbacks = _request_link(client, "ANA@olimpia.sp.gov.br", django_capture_on_commit_callbacks)
    assert "Confira seu e-mail" in response.content.decode()
    assert OutboundMail.objects.filter(
        recipient="ana@olimpia.sp.gov.br", reason="user.password_reset_request"
    )
    (mail,) = mailoutbox
    assert mail.subject == "Outorga: redefinição de senha" and mail.to == ["ana@olimpia.sp.gov.br"]
    assert "vale por 60 minutos" in mail.body
    link = re.search(r"http://testserver(/senha/redefinir/\S+/)", mail.body).group(1)  # type: ignore[union-attr]
    assert AuditEvent.objects.filter(
        action="user.password_reset_request", object_id=str(analyst_olimpia.pk)
    ).exists()

    form = client.get(link, follow=True)
    form_url = form.redirect_chain[-1][0]
    assert "Escolha uma nova senha" in form.content.decode()
    weak = client.post(form_url, {"new_password1": "senha12345", "new_password2": "senha12345"})
    assert "Esta senha é muito curta" in weak.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            form_url, {"new_password1": "rio-preto-de-manha", "new_password2": "rio-preto-de-manha"}
        )
    assert done["Location"] == reverse("password_reset_complete")
    analyst_olimpia.refresh_from_db()
    assert analyst_olimpia.check_password("rio-preto-de-manha")
    assert AuditEvent.objects.filter(action="user.password_reset", object_id=str(analyst_olimpia.pk)).exists()
    assert mailoutbox[-1].subject == "Outorga: sua senha foi alterada"

    again = Client().get(link, follow=True)
    assert "Este link não vale mais" in again.content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_mail(
    mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    response, _ = _request_link(Client(), "ninguem@exemplo.com.br", django_capture_on_commit_callbacks)
    assert "Confira seu e-mail" in response.content.decode()
    assert mailoutbox == [] and not OutboundMail.objects.exists()


def test_the_request_never_sends_mail_itself_account_or_not(
    analyst_olimpia: User, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    """The SMTP time would tell an existing account from a missing one: the worker sends, not the request."""
    User.objects.filter(pk=analyst_olimpia.pk).update(email="ana@olimpia.sp.gov.br")
    for email in ("ana@olimpia.sp.gov.br", "ninguem@exemplo.com.br"):
        with django_capture_on_commit_callbacks(execute=True):
            Client().post(reverse("password_reset"), {"email": email})
    assert mailoutbox == []
    assert OutboundMail.objects.count() == 1


def test_a_reset_unlocks_a_locked_account(
    analyst_olimpia: User, mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    User.objects.filter(pk=analyst_olimpia.pk).update(email="ana@olimpia.sp.gov.br")
    for n in range(10):
        Client().post(
            reverse("login"), {"username": "ana.analista", "password": f"errada-{n}"}, REMOTE_ADDR="10.1.1.1"
        )
    client = Client()
    assert (
        client.post(reverse("login"), {"username": "ana.analista", "password": PERSONA_PASSWORD}).status_code
        == 429
    )
    _request_link(client, "ana@olimpia.sp.gov.br", django_capture_on_commit_callbacks)
    link = re.search(r"http://testserver(/senha/redefinir/\S+/)", mailoutbox[0].body).group(1)  # type: ignore[union-attr]
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    client.post(form_url, {"new_password1": "rio-preto-de-manha", "new_password2": "rio-preto-de-manha"})
    response = client.post(reverse("login"), {"username": "ana.analista", "password": "rio-preto-de-manha"})
    assert response.status_code == 302
