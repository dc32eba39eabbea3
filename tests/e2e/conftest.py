"""Browser tests: Playwright (sync API) driving Debian's Chromium against pytest-django's live_server.

Playwright's own browser download does not work on these machines, so we launch /usr/bin/chromium
(`apt-get install chromium`). Without it the tests FAIL under CI (CI=true) and skip locally.
"""

from __future__ import annotations

import os
import shutil
from base64 import b32decode
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from apps.accounts.testing import next_code
from conftest import PERSONA_PASSWORD

CHROMIUM = Path(os.environ.get("OUTORGA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def _missing_browser(reason: str) -> None:
    message = f"{reason}. Install it with: apt-get install -y chromium (the CI script .ci/run does)."
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module", autouse=True)
def _allow_orm_under_playwright() -> Iterator[None]:
    """Playwright's sync API keeps an event loop running in this thread; Django would refuse ORM calls.

    Scoped to the browser modules (and undone after) so no other test, nor any subprocess a later
    test starts (e.g. `check --deploy`), inherits the flag.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        yield


@pytest.fixture(scope="module")
def browser(_allow_orm_under_playwright: None) -> Iterator[object]:
    if not CHROMIUM.exists() and shutil.which(str(CHROMIUM)) is None:
        _missing_browser(f"Chromium not found at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing_browser("The playwright Python package is not installed")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(locale="pt-BR", viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def sign_in(
    page: Any, base_url: str, username: str, password: str = PERSONA_PASSWORD, *, path: str = "/entrar/"
) -> None:
    """Log in as a person would: username and password, then (when the page asks) the code their authenticator
    app shows now, computed from the device's key; a staff member without one enrols it on the way (see
    enrol_authenticator). A wrong password stays on the login page."""
    page.goto(f"{base_url}{path}")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Entrar").click()
    if "/entrar/verificacao/" in page.url:
        device = TOTPDevice.objects.get(user__username=username, confirmed=True)
        page.get_by_label("Código").fill(next_code(device))
        with page.expect_navigation():
            page.get_by_role("button", name="Confirmar").click()
    elif "/conta/autenticador/novo/" in page.url:
        enrol_authenticator(page)


def enrol_authenticator(page: Any) -> None:
    """On the enrolment page: do what the phone does with the key shown (type it into an authenticator app),
    confirm with the first code, and go on past the recovery codes."""
    key = page.get_by_test_id("manual-key").inner_text().replace(" ", "")
    secret = b32decode(key + "=" * (-len(key) % 8))
    page.get_by_label("Código mostrado no aplicativo").fill(f"{totp(secret):06d}")
    page.get_by_role("button", name="Confirmar cadastro").click()
    page.get_by_test_id("recovery-codes").wait_for()
    with page.expect_navigation():
        page.get_by_role("link", name="Já guardei os códigos, continuar").click()
