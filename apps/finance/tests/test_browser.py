"""Finance screens in headless Chromium: from the home card to a registered payment and the printed guide."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.finance.models import FeeSchedule, PaymentGuide
from apps.finance.tests.conftest import issue_permit_guide
from apps.tenancy.models import Municipality
from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The project's browser fixtures (Debian Chromium, ORM allowed under Playwright), reused in this module only.
_allow_orm_under_playwright = e2e._allow_orm_under_playwright
browser = e2e.browser
page = e2e.page


SCREENSHOT = "/tmp/outorga-finance-guide.png"


def log_in(page: Page, live_server: Any, username: str) -> None:
    e2e.sign_in(page, live_server.url, username)


def test_finance_finds_a_guide_registers_its_payment_and_prints_it(
    page: Page,
    live_server: Any,
    finance_olimpia: User,
    olimpia: Municipality,
    olimpia_permit_fee: FeeSchedule,
) -> None:
    today = timezone.localdate()  # the prefeitura's day, as the views use it
    guide = issue_permit_guide(olimpia, origin_id=1, day=today)
    issue_permit_guide(olimpia, origin_id=2, day=today)
    log_in(page, live_server, "fabio.financeiro")
    page.get_by_role("link", name="Ver guias").click()
    expect(page.locator("tr[data-guide]")).to_have_count(2)

    page.get_by_label("Número, contribuinte ou CPF/CNPJ").fill(guide.number)
    page.get_by_role("button", name="Filtrar").click()
    expect(page.locator("tr[data-guide]")).to_have_count(1)
    page.get_by_role("link", name=guide.number).click()
    expect(page.get_by_test_id("guide-amount")).to_have_text("R$ 150,00")
    expect(page.get_by_role("figure", name="QR code PIX da guia").locator("svg")).to_be_visible()
    page.screenshot(path=SCREENSHOT, full_page=True)

    page.get_by_role("link", name="Registrar pagamento").click()
    page.get_by_label("Data do pagamento").fill((today + dt.timedelta(days=2)).isoformat())
    page.get_by_role("button", name="Registrar pagamento").click()
    expect(page.get_by_text("Data do pagamento: não pode ser no futuro.")).to_be_visible()

    page.get_by_label("Data do pagamento").fill(today.isoformat())
    page.get_by_role("button", name="Registrar pagamento").click()
    expect(page.get_by_test_id("guide-status")).to_have_text("Paga")
    expect(page.get_by_test_id("payment")).to_contain_text("R$ 150,00 (PIX)")

    pdf = page.request.get(f"{live_server.url}/municipios/3533908/financeiro/guias/{guide.pk}/pdf/")
    assert pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF")
    assert PaymentGuide.objects.get(pk=guide.pk).status == "paid"
