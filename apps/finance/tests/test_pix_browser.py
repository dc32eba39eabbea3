"""The guide-to-paid flow with a PSP, in headless Chromium: the guide shows the bank's charge, the payer's bank
pays it, the bank's webhook reaches Outorga, and the open guide page turns to "Paga" on its own."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.finance.models import FeeSchedule, PaymentGuide
from apps.finance.tests.conftest import configure_charge_terms, issue_permit_guide
from apps.tenancy.models import Municipality
from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_allow_orm_under_playwright = e2e._allow_orm_under_playwright
browser = e2e.browser
page = e2e.page


def test_a_guide_paid_in_the_bank_app_shows_as_paid_without_anyone_typing_it(
    page: Page,
    live_server: Any,
    finance_olimpia: User,
    olimpia: Municipality,
    olimpia_permit_fee: FeeSchedule,
    local_psp: Any,
) -> None:
    from django.utils import timezone

    configure_charge_terms(olimpia)
    guide = issue_permit_guide(olimpia, origin_id=1, day=timezone.localdate())
    charge = PaymentGuide.objects.get(pk=guide.pk).pix_charge
    assert charge.confirmed == "active"
    local_psp.webhook_url = f"{live_server.url}/pix/webhook/{olimpia.ibge_code}"

    e2e.sign_in(page, live_server.url, "fabio.financeiro")
    page.goto(f"{live_server.url}/municipios/{olimpia.ibge_code}/financeiro/guias/{guide.pk}/")
    expect(page.get_by_test_id("pix-charge-state")).to_contain_text(
        "Cobrança com vencimento registrada no banco"
    )
    expect(page.get_by_test_id("pix-payload")).to_have_text(local_psp.charges[charge.txid]["pixCopiaECola"])
    expect(page.get_by_role("link", name="Registrar pagamento feito fora do PIX")).to_be_visible()

    assert local_psp.pay(charge.txid, amount="135.00") == local_psp.received[-1]  # webhook delivered
    expect(page.get_by_test_id("guide-status")).to_have_text("Paga", timeout=15_000)
    expect(page.get_by_test_id("payment")).to_contain_text("R$ 135,00 (PIX)")


def test_the_new_finance_screens_are_portuguese_and_accessible(
    page: Page,
    live_server: Any,
    finance_olimpia: User,
    admin_olimpia: User,
    olimpia: Municipality,
    olimpia_permit_fee: FeeSchedule,
    local_psp: Any,
) -> None:
    from django.utils import timezone

    from tests.e2e.ux_checks import axe_violations, check_page, watch_console

    configure_charge_terms(olimpia)
    guide = issue_permit_guide(olimpia, origin_id=1, day=timezone.localdate())
    local_psp.webhook_url = f"{live_server.url}/pix/webhook/{olimpia.ibge_code}"
    local_psp.pay(guide.pix_charge.txid, amount="1.00")  # a different amount: it waits in the review queue
    base = f"{live_server.url}/municipios/{olimpia.ibge_code}/financeiro"
    errors: list[str] = []
    watch_console(page, errors)
    problems: list[str] = []
    e2e.sign_in(page, live_server.url, "fabio.financeiro")
    for url in (f"{base}/guias/{guide.pk}/", f"{base}/conferencia/", f"{base}/conferencia/retorno-cnab/"):
        report = check_page(page, url, errors)
        problems += [f"{url}: {problem}" for problem in report.problems + axe_violations(page)]
    expect(
        page.get_by_test_id("main-navigation").get_by_role("link", name="Conferência de pagamentos")
    ).to_be_visible()
    page.goto(f"{base}/conferencia/")
    expect(page.get_by_test_id("review-open-count")).to_contain_text("1")
    expect(page.locator("tr[data-review]")).to_contain_text("R$ 1,00")
    page.get_by_label("Justificativa").fill("Valor pago a menor pelo contribuinte")
    page.get_by_label("Decisão").select_option("archive")
    page.get_by_role("button", name="Registrar decisão").click()
    expect(page.locator("tr[data-review]")).to_contain_text("Arquivado com justificativa")
    page.context.clear_cookies()
    e2e.sign_in(page, live_server.url, admin_olimpia.username)
    report = check_page(page, f"{base}/configuracao/cobranca-pix/", errors)
    problems += report.problems + axe_violations(page)
    assert not problems, "\n".join(problems)
