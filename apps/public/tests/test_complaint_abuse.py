"""The complaint form resists floods: a few per client per window, and a proof of work per send."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from django.core import signing
from django.test import Client

from apps.public import pow
from apps.public.models import Complaint
from apps.public.tests.test_complaints import _form, solved_challenge
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
URL = "/consulta/denunciar/"


def test_the_form_explains_the_check_and_loads_the_local_script(
    client: Client, olimpia: Municipality
) -> None:
    page = client.get(URL).content.decode()
    assert "o seu navegador faz um pequeno cálculo antes do envio" in page
    assert "sem serviços de terceiros" in page
    assert 'src="/static/public/complaint-pow.js"' in page
    assert "data-pow-challenge=" in page and "<noscript>" in page


def test_a_send_without_the_proof_of_work_is_refused_in_portuguese(
    client: Client, olimpia: Municipality, today: dt.date
) -> None:
    data = _form(today) | {"pow_nonce": ""}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert (
        "Verificação contra envios automáticos: o cálculo do navegador não chegou"
        in response.content.decode()
    )
    assert not Complaint.objects.exists()


def test_a_wrong_nonce_is_refused(
    client: Client, olimpia: Municipality, today: dt.date, settings: Any
) -> None:
    settings.PUBLIC_COMPLAINT_POW_BITS = 12
    challenge = pow.issue()
    wrong = next(str(n) for n in range(10_000) if not pow.leading_zero_bits_ok(challenge.token, str(n), 12))
    response = client.post(URL, _form(today) | {"pow_challenge": challenge.token, "pow_nonce": wrong})
    assert "o cálculo não confere" in response.content.decode()
    assert not Complaint.objects.exists()


def test_one_solution_files_one_complaint(client: Client, olimpia: Municipality, today: dt.date) -> None:
    data = _form(today)
    assert client.post(URL, data).status_code == 302
    again = client.post(URL, data)
    assert again.status_code == 400
    assert "este envio já foi usado" in again.content.decode()
    assert Complaint.objects.count() == 1


def test_a_forged_or_expired_challenge_is_refused(
    client: Client, olimpia: Municipality, today: dt.date, settings: Any
) -> None:
    forged = f"{'0' * 32}.{int(time.time()) + 600}.0"
    forged_token = forged + ":not-a-signature"
    response = client.post(URL, _form(today) | {"pow_challenge": forged_token, "pow_nonce": "0"})
    assert "desafio inválido" in response.content.decode()
    past = signing.Signer(salt=pow.SALT).sign(f"{'1' * 32}.{int(time.time()) - 1}.4")
    response = client.post(URL, _form(today) | {"pow_challenge": past, "pow_nonce": pow.solve(past, 4)})
    assert "o formulário ficou aberto por muito tempo" in response.content.decode()
    assert not Complaint.objects.exists()


def test_a_refused_send_offers_a_fresh_challenge(
    client: Client, olimpia: Municipality, today: dt.date
) -> None:
    data = _form(today) | {"pow_nonce": ""}
    page = client.post(URL, data).content.decode()
    assert f'data-pow-challenge="{data["pow_challenge"]}"' not in page
    assert "data-pow-challenge=" in page


def test_a_flood_of_complaints_from_one_client_is_limited_with_retry_after(
    client: Client, olimpia: Municipality, today: dt.date, settings: Any
) -> None:
    settings.PUBLIC_COMPLAINT_RATE_LIMIT = 3
    statuses = [client.post(URL, _form(today)).status_code for _ in range(5)]
    assert statuses == [302, 302, 302, 429, 429]
    limited = client.post(URL, _form(today))
    assert "Muitas denúncias em pouco tempo" in limited.content.decode()
    assert int(limited["Retry-After"]) >= 1
    assert Complaint.objects.count() == 3
    other = Client(REMOTE_ADDR="10.0.0.77")
    assert other.post(URL, _form(today) | solved_challenge()).status_code == 302


def test_the_form_works_without_the_check_when_it_is_turned_off(
    client: Client, olimpia: Municipality, today: dt.date, settings: Any
) -> None:
    settings.PUBLIC_COMPLAINT_POW_BITS = 0
    page = client.get(URL).content.decode()
    assert "data-pow-challenge" not in page
    data = {k: v for k, v in _form(today).items() if not k.startswith("pow_")}
    assert client.post(URL, data).status_code == 302
