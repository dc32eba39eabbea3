"""Every persona of the demo walks its pages in the browser, and every page passes ux_checks: Portuguese only
(no engine text, codes, regime ids, ISO dates outside <time datetime>), no server error, no JavaScript error;
each persona's main page has no axe-core WCAG 2.1 A/AA violation on a desktop and on a phone, and on the phone
the main menu stays folded under the header's menu button.

The data is the demo's (manage.py seed_demo): every role of a municipality, the installation's regional
administrator and the portal user of each municipality, with the records they work on."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Browser, Page, ViewportSize, expect

from apps.accounts.models import User

from .conftest import sign_in
from .ux_checks import axe_violations, check_page, dashboard_count_problems, same_site_links, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DEMO_PASSWORD = "demo-publica-do-outorga"
ROLES = ("administrador", "analista", "vistoriador", "agente", "julgador", "jari", "financeiro", "auditor")
STAFF = [f"olimpia.{role}" for role in ROLES] + ["votuporanga.analista", "admin.regional"]
PORTAL = [
    "olimpia.permissionario",
    "votuporanga.permissionario",
    "patrocinio.permissionario",
    "saojose.permissionario",
]
PAGES_PER_PERSONA = 14
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def demo(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("seed_demo", "--force", stdout=io.StringIO())  # a throwaway test database


def _context(browser: Browser, viewport: ViewportSize) -> Any:
    phone = viewport == PHONE
    return browser.new_context(locale="pt-BR", viewport=viewport, is_mobile=phone, has_touch=phone)


def _sign_in(page: Page, base_url: str, username: str) -> None:
    path = "/portal/entrar/" if username in PORTAL else "/entrar/"
    sign_in(page, base_url, username, DEMO_PASSWORD, path=path)
    assert "/entrar/" not in page.url, f"{username} did not get past the login"


def _crawl(browser: Browser, base_url: str, username: str) -> list[str]:
    """The persona's pages on a desktop: its main page and the pages its menu and main page link to."""
    context = _context(browser, DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    watch_console(page, errors)
    try:
        _sign_in(page, base_url, username)
        problems = [f"axe (computador): {v}" for v in axe_violations(page)]
        urls = [page.url, *same_site_links(page, base_url)][:PAGES_PER_PERSONA]
        if username in PORTAL:  # its notifications, whatever else the portal links to first
            urls += [url for url in (f"{base_url}/portal/avisos/",) if url not in urls]
        for url in urls:
            problems += [f"{url.replace(base_url, '')}: {p}" for p in check_page(page, url, errors).problems]
        return problems
    finally:
        context.close()


def _phone(browser: Browser, base_url: str, username: str) -> list[str]:
    """The persona's main page on a phone: no WCAG violation, the menu folded until its button is tapped."""
    context = _context(browser, PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _sign_in(page, base_url, username)
        problems = [f"axe (celular): {v}" for v in axe_violations(page)]
        expect(page.get_by_test_id("main-navigation")).to_be_hidden()
        page.get_by_test_id("menu-toggle").tap()
        expect(page.get_by_test_id("main-navigation")).to_be_visible()
        expect(page.get_by_test_id("menu-toggle")).to_have_attribute("aria-expanded", "true")
        return problems
    finally:
        context.close()


def test_every_persona_sees_portuguese_accessible_pages_without_errors(
    browser: Browser, live_server: Any, demo: None
) -> None:
    # One demo for all personas (seeding it is the slow part); the failure lists every problem of every one.
    problems = []
    for username in STAFF + PORTAL:
        found = _crawl(browser, live_server.url, username) + _phone(browser, live_server.url, username)
        problems += [f"{username} — {problem}" for problem in found]
    problems += _dashboard_counts()
    assert not problems, "\n".join(problems)


def _dashboard_counts() -> list[str]:
    """Each staff persona's home figures agree with the lists they link to (no browser needed to compare)."""
    problems, compared = [], 0
    for username in STAFF:
        client = Client()
        client.force_login(User.objects.get(username=username))
        figures, found = dashboard_count_problems(client)
        compared += figures
        problems += [f"{username} — {problem}" for problem in found]
    return problems if compared else ["nenhum número do painel leva a uma lista"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_public_lookup_has_no_wcag_violation_and_no_error(
    browser: Browser, live_server: Any, demo: None, viewport: ViewportSize
) -> None:
    context = _context(browser, viewport)
    page = context.new_page()
    errors: list[str] = []
    watch_console(page, errors)
    try:
        for path in (
            "/consulta/",
            "/consulta/?q=ZZZ9Z99",
            "/consulta/denunciar/",
            "/dados-abertos/",
            "/verificar-documento/",
        ):
            report = check_page(page, f"{live_server.url}{path}", errors)
            assert report.problems == [], f"{path}: {report.problems}"
            assert axe_violations(page) == [], path
    finally:
        context.close()
