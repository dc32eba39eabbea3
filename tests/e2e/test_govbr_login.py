"""«Entrar com gov.br» in the browser: a licensed holder clicks the button on the portal's login page, logs in at
a real local OpenID Connect provider (apps.portal.tests.govbr_provider, over HTTP) and lands on the portal; a
person the municipality does not know is sent back with the refusal in Portuguese."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from apps.licensing.casebook import pf_case
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.portal.choices import PortalRole
from apps.portal.services import portal_account_create
from apps.portal.tests.govbr_provider import LocalGovBr
from apps.tenancy.models import Municipality

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def govbr(settings: Any) -> Iterator[LocalGovBr]:
    provider = LocalGovBr().start()
    for name, value in provider.settings().items():
        setattr(settings, name, value)
    yield provider
    provider.stop()


def _at_provider_log_in(page: Page, cpf: str, password: str) -> None:
    expect(page.get_by_role("heading", name="gov.br (provedor local de teste)")).to_be_visible()
    page.get_by_label("CPF").fill(cpf)
    page.get_by_label("Senha").fill(password)
    page.get_by_role("button", name="Entrar").click()


def test_a_holder_enters_the_portal_with_gov_br(
    page: Page, live_server: Any, olimpia: Municipality, govbr: LocalGovBr
) -> None:
    case = pf_case(olimpia, 1, "João da Silva", as_of=AS_OF)
    issue_permit(case)
    portal_account_create(
        actor=None,
        operator=case.operator,
        role=PortalRole.OPERATOR,
        username="joao.portal",
        password="senha-do-portal-123",
        full_name="João da Silva",
    )
    assert case.operator.person is not None
    cpf = case.operator.person.cpf
    govbr.add_account(cpf, "João da Silva", password="senha-no-gov-br")

    page.goto(f"{live_server.url}/portal/entrar/")
    page.get_by_role("link", name="Entrar com gov.br").click()
    _at_provider_log_in(page, cpf, "senha-no-gov-br")

    page.wait_for_url(f"{live_server.url}/portal/")
    expect(page.get_by_role("heading", name="O que vence primeiro")).to_be_visible()
    expect(page.get_by_role("button", name="Sair")).to_be_visible()


def test_an_unknown_cpf_is_sent_back_with_the_reason(
    page: Page, live_server: Any, olimpia: Municipality, govbr: LocalGovBr
) -> None:
    govbr.add_account("52998224725", "Pessoa Desconhecida", password="senha-no-gov-br")
    page.goto(f"{live_server.url}/portal/entrar/")
    page.get_by_role("link", name="Entrar com gov.br").click()
    _at_provider_log_in(page, "529.982.247-25", "senha-no-gov-br")

    page.wait_for_url(f"{live_server.url}/portal/entrar/")
    expect(page.get_by_role("alert").first).to_contain_text("Seu CPF não consta no cadastro")
