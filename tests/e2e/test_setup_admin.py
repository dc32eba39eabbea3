"""Set-up without a shell, in the browser: the installation's administrator signs in, creates a municipality and
invites an analyst; the analyst follows the link from the mail, chooses a login and a password and lands on the
municipality's home."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import Browser, Page, expect

from apps.accounts.testing import give_authenticator, next_code
from apps.tenancy.services import deployment_admin_create_first

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

INSTALLER_PASSWORD = "Instalacao-Outorga-2026"
ANALYST_PASSWORD = "Analise-de-Alvaras-77"
OLIMPIA_REGIME = "Transporte coletivo escolar particular — Olímpia/SP"


def _link_in_last_mail() -> str:
    body = mail.outbox[-1].body
    return next(line for line in body.splitlines() if "/convite/" in line).strip()


def test_the_installer_creates_a_municipality_and_the_invited_analyst_lands_on_its_home(
    page: Page, browser: Browser, live_server: Any
) -> None:
    installer = deployment_admin_create_first(
        username="instalador",
        email="ti@example.gov.br",
        password=INSTALLER_PASSWORD,
        full_name="Equipe de TI",
    ).user
    give_authenticator(installer)  # the installer's phone, already enrolled: signing in asks for its code
    sign_in(page, live_server.url, "instalador", INSTALLER_PASSWORD)
    expect(page.get_by_role("heading", name="Municípios da instalação")).to_be_visible()

    page.get_by_role("link", name="Novo município").click()
    page.get_by_label("Código IBGE do município (7 dígitos)").fill("3533908")
    page.get_by_label("Nome do município").fill("Olímpia")
    page.get_by_label("UF").select_option("SP")
    page.get_by_text(OLIMPIA_REGIME).click()
    page.get_by_role("button", name="Criar município").click()
    expect(page.get_by_role("heading", name="Configuração legal de Olímpia")).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text="Município Olímpia-SP criado")).to_be_visible()

    page.locator('[data-menu="team"]').click()
    page.get_by_role("link", name="Convidar servidor").click()
    page.get_by_label("Nome completo").fill("Nádia Analista")
    page.get_by_label("E-mail (o convite será enviado para ele)").fill("nadia@olimpia.example.gov.br")
    page.get_by_text("Analista", exact=True).click()
    page.get_by_role("button", name="Enviar convite").click()
    expect(
        page.get_by_role("alert").filter(has_text="Convite enviado para nadia@olimpia.example.gov.br")
    ).to_be_visible()
    assert mail.outbox[-1].to == ["nadia@olimpia.example.gov.br"]
    link = _link_in_last_mail()
    assert link.startswith(live_server.url)

    analyst = browser.new_context(locale="pt-BR").new_page()
    analyst.goto(link)
    expect(analyst.get_by_role("heading", name="Criar sua conta no Outorga")).to_be_visible()
    analyst.get_by_label("Usuário (com ele você entrará no Outorga)").fill("nadia.analista")
    analyst.get_by_label("Senha", exact=True).fill(ANALYST_PASSWORD)
    analyst.get_by_label("Repita a senha").fill(ANALYST_PASSWORD)
    analyst.get_by_role("button", name="Criar conta e entrar").click()
    # Staff sign in with a second factor: the new analyst enrols the authenticator app first, then goes home.
    expect(analyst.get_by_role("heading", name="Cadastrar aplicativo autenticador")).to_be_visible()
    device = TOTPDevice.objects.get(user__username="nadia.analista", confirmed=False)
    analyst.get_by_label("Código mostrado no aplicativo").fill(next_code(device))
    analyst.get_by_role("button", name="Confirmar cadastro").click()
    analyst.get_by_role("link", name="Já guardei os códigos, continuar").click()
    expect(analyst).to_have_url(f"{live_server.url}/municipios/3533908/")
    expect(analyst.get_by_role("heading", name="Painel de Olímpia")).to_be_visible()
    expect(analyst.get_by_text(re.compile("Seu papel: Analista"))).to_be_visible()

    analyst.goto(link)  # the link worked once and is dead now
    expect(analyst.get_by_role("heading", name="Convite indisponível")).to_be_visible()
    analyst.context.close()


def test_the_administrator_adds_a_second_regime_to_an_existing_municipality(
    page: Page, live_server: Any
) -> None:
    """Creating the town again names it and points to its regimes; there the administrator adds a second law
    from a date, which the table shows in force, and the audit keeps."""
    from apps.audit.models import AuditEvent
    from apps.tenancy.services import municipality_setup

    installer = deployment_admin_create_first(
        username="instalador",
        email="ti@example.gov.br",
        password=INSTALLER_PASSWORD,
        full_name="Equipe de TI",
    ).user
    give_authenticator(installer)
    municipality_setup(
        actor=installer, ibge_code="3533908", name="Olímpia", uf="SP", regimes=["olimpia_sp_escolar"]
    )
    sign_in(page, live_server.url, "instalador", INSTALLER_PASSWORD)
    page.get_by_role("link", name="Novo município").click()
    page.get_by_label("Código IBGE do município (7 dígitos)").fill("3533908")
    page.get_by_label("Nome do município").fill("Olímpia")
    page.get_by_label("UF").select_option("SP")
    page.get_by_text("Serviço de táxi de São José dos Campos-SP").click()
    page.get_by_role("button", name="Criar município").click()
    expect(
        page.get_by_text("O município Olímpia-SP (código IBGE 3533908) já está cadastrado")
    ).to_be_visible()
    expect(page.get_by_text("Identificador na URL")).to_have_count(0)

    page.goto(f"{live_server.url}/instalacao/municipios/")
    page.get_by_role("link", name="Regimes legais").click()
    expect(page.get_by_role("heading", name="Regimes legais de Olímpia-SP")).to_be_visible()
    page.get_by_label("Regime legal a acrescentar").select_option(
        label="Serviço de táxi de São José dos Campos-SP (Lei nº 8.698, de 18 de maio de 2012)"
    )
    page.get_by_label("Em vigor a partir de").fill("2026-01-01")
    page.get_by_test_id("regime-add").click()
    expect(page.get_by_role("alert").filter(has_text="acrescentado a Olímpia-SP")).to_be_visible()
    expect(page.get_by_test_id("regimes")).to_contain_text("Serviço de táxi de São José dos Campos-SP")
    expect(page.get_by_test_id("regimes")).to_contain_text("01/01/2026")
    assert AuditEvent.objects.filter(action="municipality.regime_add").count() == 1
