from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.tenancy.services import membership_grant
from conftest import PERSONA_PASSWORD

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = "/tmp/outorga-home.png"


def log_in(page: Page, live_server: Any, username: str, password: str = PERSONA_PASSWORD) -> None:
    sign_in(page, live_server.url, username, password)


def test_it_logs_in_and_shows_olimpia_home_with_real_counts(
    page: Page, live_server: Any, analyst_olimpia: User, admin_olimpia: User, agent_votuporanga: User
) -> None:
    log_in(page, live_server, "ana.analista")
    expect(page).to_have_url(f"{live_server.url}/municipios/3533908/")
    expect(page.get_by_role("heading", name="Painel de Olímpia")).to_be_visible()
    team = page.locator('[data-card="team"]')
    expect(team.locator("dt", has_text="Administrador").locator("xpath=..").locator("dd")).to_have_text("1")
    expect(
        team.locator("dt", has_text="Agente de fiscalização").locator("xpath=..").locator("dd")
    ).to_have_text("0")
    expect(page.get_by_text("Votuporanga")).to_have_count(0)
    page.screenshot(path=SCREENSHOT, full_page=True)


def test_it_renders_with_the_gov_br_design_system_styles(
    page: Page, live_server: Any, analyst_olimpia: User
) -> None:
    log_in(page, live_server, "ana.analista")
    expect(page.locator("header.br-header")).to_be_visible()
    # core.min.css really loaded from the vendor path: the DS tokens resolve and style the header.
    token = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--blue-warm-vivid-70')"
    )
    assert token.strip().lower() == "#1351b4"
    shadow = page.evaluate("getComputedStyle(document.querySelector('header.br-header')).boxShadow")
    assert shadow != "none"
    assert page.evaluate("typeof window.htmx") == "object"


def test_it_refreshes_the_counts_in_place_with_htmx(
    page: Page, live_server: Any, analyst_olimpia: User, outsider: User, olimpia: Municipality
) -> None:
    log_in(page, live_server, "ana.analista")
    finance = page.locator('[data-card="team"] dt', has_text="Financeiro").locator("xpath=..").locator("dd")
    expect(finance).to_have_text("0")
    membership_grant(actor=None, user=outsider, municipality=olimpia, role=Role.FINANCE)
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("button", name="Atualizar números").click()
    expect(finance).to_have_text("1")
    assert page.evaluate("window.__sameDocument") is True  # no full page load happened


def test_it_keeps_the_outsider_out_of_olimpia(
    page: Page, live_server: Any, outsider: User, olimpia: Municipality
) -> None:
    log_in(page, live_server, "carlos.sem.vinculo")
    expect(
        page.get_by_role("heading", name="Você ainda não tem vínculo com nenhum município")
    ).to_be_visible()
    response = page.goto(f"{live_server.url}/municipios/3533908/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Página não encontrada (404)")).to_be_visible()
    expect(page.get_by_text("Olímpia")).to_have_count(0)


def test_it_shows_the_portuguese_message_for_a_wrong_password(
    page: Page, live_server: Any, analyst_olimpia: User
) -> None:
    log_in(page, live_server, "ana.analista", password="senha-errada")
    expect(page.get_by_test_id("login-error")).to_have_text(re.compile("Usuário ou senha incorretos"))
    expect(page).to_have_url(re.compile(r"/entrar/$"))


def test_it_offers_the_skip_link_first_in_focus_order(
    page: Page, live_server: Any, analyst_olimpia: User
) -> None:
    log_in(page, live_server, "ana.analista")  # the login page itself focuses the username field
    expect(page.get_by_role("heading", name="Painel de Olímpia")).to_be_visible()
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent.trim()")
    assert focused == "Ir para o conteúdo"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main-content"
