"""Staff screens: tokens issued (shown once) and revoked by an administrator; other towns get 404."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.platforms.models import PlatformCredential
from apps.platforms.tests.conftest import post_json, url
from apps.platforms.tokens import token_hash
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
PAGE = "/municipios/{}/aplicativos/credenciais/"


def login(make_staff: Any, username: str, *grants: tuple[Municipality, str]) -> Client:
    client = Client()
    client.force_login(make_staff(username, *grants))
    return client


def test_an_administrator_issues_a_token_shown_once_and_revokes_it(
    make_staff: Any, patrocinio: Municipality
) -> None:
    admin = login(make_staff, "adm.patrocinio", (patrocinio, Role.ADMINISTRATOR))
    response = admin.post(
        PAGE.format(patrocinio.ibge_code),
        {"platform_name": "Roda Já", "cnpj": "11.222.333/0001-81", "label": "produção"},
    )
    assert response["Cache-Control"] == "no-store"
    token = response.context["issued"].token
    assert token in response.content.decode()
    credential = PlatformCredential.objects.get()
    assert credential.token_hash == token_hash(token)
    assert token not in admin.get(PAGE.format(patrocinio.ibge_code)).content.decode()
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert post_json(api, url(patrocinio.ibge_code, "checks/"), {"vehicles": ["ABC1D23"]}).status_code == 200
    admin.post(PAGE.format(patrocinio.ibge_code) + f"{credential.pk}/revogar/")
    assert post_json(api, url(patrocinio.ibge_code, "checks/"), {"vehicles": ["ABC1D23"]}).status_code == 401


def test_a_bad_cnpj_is_explained_and_nothing_is_issued(make_staff: Any, patrocinio: Municipality) -> None:
    admin = login(make_staff, "adm.patrocinio", (patrocinio, Role.ADMINISTRATOR))
    response = admin.post(
        PAGE.format(patrocinio.ibge_code), {"platform_name": "X", "cnpj": "11.222.333/0001-00"}
    )
    assert "CNPJ: número inválido" in response.content.decode()
    assert not PlatformCredential.objects.exists()


def test_a_cnpj_of_another_platform_is_refused_and_nothing_is_issued(
    make_staff: Any, patrocinio: Municipality
) -> None:
    admin = login(make_staff, "adm.patrocinio", (patrocinio, Role.ADMINISTRATOR))
    page = PAGE.format(patrocinio.ibge_code)
    admin.post(page, {"platform_name": "Roda Já", "cnpj": "11.222.333/0001-81"})
    response = admin.post(page, {"platform_name": "Outra Corrida", "cnpj": "11222333000181"})
    assert "este CNPJ já está cadastrado para a plataforma «Roda Já»" in response.content.decode()
    assert PlatformCredential.objects.count() == 1
    # The same platform, its name typed another way, gets its second token.
    admin.post(page, {"platform_name": "  roda ja ", "cnpj": "11.222.333/0001-81"})
    assert PlatformCredential.objects.filter(platform__name="Roda Já").count() == 2


def test_an_analyst_cannot_issue_and_another_town_gets_404(
    make_staff: Any, patrocinio: Municipality, olimpia: Municipality, issued: Any
) -> None:
    analyst = login(make_staff, "ana.patrocinio", (patrocinio, Role.ANALYST))
    assert analyst.get(PAGE.format(patrocinio.ibge_code)).status_code == 404
    outsider = login(make_staff, "adm.olimpia", (olimpia, Role.ADMINISTRATOR))
    assert outsider.get(PAGE.format(patrocinio.ibge_code)).status_code == 404
    revoke = PAGE.format(patrocinio.ibge_code) + f"{issued.credential.pk}/revogar/"
    assert outsider.post(revoke).status_code == 404
    assert PlatformCredential.objects.get().revoked_at is None
