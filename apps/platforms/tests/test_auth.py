"""Tokens: shown once, stored hashed, bound to one municipality, revocable; every refusal has a JSON code."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.platforms.models import PlatformCredential
from apps.platforms.services import IssuedCredential, credential_issue, credential_revoke
from apps.platforms.tests.conftest import post_json, url
from apps.platforms.tokens import token_hash
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
CHECK = {"vehicles": ["ABC1D23"]}


def test_it_stores_only_the_hash_of_the_token(issued: IssuedCredential) -> None:
    row = PlatformCredential.objects.get()
    assert row.token_hash == token_hash(issued.token)
    assert issued.token not in str(PlatformCredential.objects.values().get())


def test_it_answers_a_valid_token(api: Client, patrocinio: Municipality) -> None:
    response = post_json(api, url(patrocinio.ibge_code, "checks/"), CHECK)
    assert response.status_code == 200
    assert response.json()["vehicles"][0]["status"] == "unknown"


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("", "token_missing"),
        ("Token abc", "token_missing"),
        ("Bearer", "token_malformed"),
        ("Bearer not-a-token", "token_malformed"),
        ("Bearer otp_12345678_" + "x" * 43, "token_unknown"),
    ],
)
def test_it_refuses_missing_and_malformed_tokens(patrocinio: Municipality, header: str, code: str) -> None:
    client = Client(HTTP_AUTHORIZATION=header) if header else Client()
    response = post_json(client, url(patrocinio.ibge_code, "checks/"), CHECK)
    assert response.status_code == 401
    assert response.json()["code"] == code
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_token_replayed_is_refused(
    api: Client, issued: IssuedCredential, patrocinio: Municipality
) -> None:
    assert post_json(api, url(patrocinio.ibge_code, "checks/"), CHECK).status_code == 200
    credential_revoke(actor=None, credential=issued.credential)
    response = post_json(api, url(patrocinio.ibge_code, "checks/"), CHECK)
    assert response.status_code == 401
    assert response.json() == {
        "code": "token_revoked",
        "message": "Token revogado pela prefeitura; peça um novo.",
    }


def test_a_token_for_another_municipality_gets_403(api: Client, olimpia: Municipality) -> None:
    for path in ("checks/", "changes/", "substitutions/1/", "roster/1/"):
        method = api.get if path in ("changes/", "substitutions/1/", "roster/1/") else api.post
        response = method(url(olimpia.ibge_code, path), content_type="application/json")
        assert response.status_code == 403, path
        assert response.json()["code"] == "token_wrong_municipality"


def test_each_municipality_needs_its_own_token(issued: IssuedCredential, olimpia: Municipality) -> None:
    other = credential_issue(actor=None, platform=issued.credential.platform, municipality=olimpia)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {other.token}")
    assert post_json(client, url(olimpia.ibge_code, "checks/"), CHECK).status_code == 200
    assert post_json(client, url("3148103", "checks/"), CHECK).status_code == 403


def test_staff_session_cannot_use_the_platform_api(admin_client: Client, patrocinio: Municipality) -> None:
    response = post_json(admin_client, url(patrocinio.ibge_code, "checks/"), CHECK)
    assert response.status_code == 401
    assert response.json()["code"] == "token_missing"


def test_malformed_json_gets_a_code(api: Client, patrocinio: Municipality) -> None:
    response = api.post(url(patrocinio.ibge_code, "checks/"), "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "body_malformed"
