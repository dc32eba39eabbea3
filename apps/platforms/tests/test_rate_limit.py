"""The platform API counts requests per token in the shared cache and answers 429 with Retry-After."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from apps.platforms.services import IssuedCredential, credential_issue
from apps.platforms.tests.conftest import post_json, url
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
CHECK = {"vehicles": ["ABC1D23"]}


@pytest.fixture(autouse=True)
def _low_limit(settings: Any) -> None:
    settings.PLATFORM_RATE_LIMIT = 3
    settings.PLATFORM_RATE_WINDOW = 60
    caches["default"].clear()


def test_a_burst_past_the_limit_answers_429_with_retry_after_in_portuguese(
    api: Client, patrocinio: Municipality
) -> None:
    path = url(patrocinio.ibge_code, "checks/")
    assert [post_json(api, path, CHECK).status_code for _ in range(3)] == [200, 200, 200]
    limited = post_json(api, path, CHECK)
    assert limited.status_code == 429
    assert limited.json()["code"] == "rate_limited"
    assert "aguarde" in limited.json()["message"]
    assert 1 <= int(limited["Retry-After"]) <= 60


def test_every_endpoint_counts_against_the_same_token(api: Client, patrocinio: Municipality) -> None:
    ibge = patrocinio.ibge_code
    api.get(url(ibge, "changes/"))
    api.get(url(ibge, "substitutions/999/"))
    post_json(api, url(ibge, "checks/"), CHECK)
    assert api.get(url(ibge, "changes/")).status_code == 429


def test_another_token_has_its_own_counter(
    api: Client, issued: IssuedCredential, patrocinio: Municipality
) -> None:
    path = url(patrocinio.ibge_code, "checks/")
    for _ in range(4):
        post_json(api, path, CHECK)
    other = credential_issue(actor=None, platform=issued.credential.platform, municipality=patrocinio)
    assert post_json(Client(HTTP_AUTHORIZATION=f"Bearer {other.token}"), path, CHECK).status_code == 200
