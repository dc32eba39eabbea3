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
