"""The portal shows a final penalty as the holder needs it, in a real browser on a phone: the penalty and the fine
in reais on the auto's page, what to do next (the overdue guide to pay), and the PIX code copied by its button
(a script file, allowed by the strict CSP) with the confirmation read out."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from apps.dueprocess.services.fines import fine_issue
from apps.dueprocess.tests.helpers import final_without_appeal, notify, open_case
from apps.enforcement.choices import NoticePurpose
from apps.finance.formatting import brl
from apps.finance.models import PaymentGuide
from apps.finance.tests.conftest import configure_pix
from apps.licensing.casebook import pf_case
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.portal.choices import PortalRole
from apps.portal.services import portal_account_create
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in
from .test_enforcement_phone import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-do-portal-123"
D = dt.date


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Page]:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, is_mobile=True, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_the_holder_reads_the_penalty_and_copies_the_pix_code_of_its_overdue_guide(
    phone: Page, live_server: Any, olimpia: Municipality, make_staff: Any
) -> None:
    agent = make_staff("otavio.agente", (olimpia, Role.ENFORCEMENT_AGENT), full_name="Otávio Agente")
    judge = make_staff("julia.julgadora", (olimpia, Role.JUDGING_AUTHORITY), full_name="Júlia Julgadora")
    finance = make_staff("fabi.financeiro", (olimpia, Role.FINANCE), full_name="Fabiana Financeiro")
    case = pf_case(olimpia, 3, "Maria Souza", as_of=AS_OF)
    issue_permit(case)
    auto = open_case(olimpia, agent, code="OLI-23-I", plate=case.vehicle.plate, on=D(2026, 3, 12))
    sanction = final_without_appeal(auto, agent, judge, D(2026, 3, 13), D(2026, 3, 24))
    notify(auto, agent, D(2026, 3, 25), NoticePurpose.FINAL_DECISION)
    configure_pix(olimpia, "PREFEITURA DE OLIMPIA", "OLIMPIA")
    guide = fine_issue(sanction=sanction, actor=finance, as_of=D(2026, 3, 25))
    assert isinstance(guide, PaymentGuide)
    portal_account_create(
        actor=None,
        operator=case.operator,
        role=PortalRole.OPERATOR,
        username="maria.portal",
        password=PASSWORD,
        full_name="Maria Souza",
    )
    sign_in(phone, live_server.url, "maria.portal", PASSWORD, path="/portal/entrar/")

    phone.goto(f"{live_server.url}/portal/autos/{auto.pk}/")
    penalty = phone.get_by_test_id("penalty")
    expect(penalty.get_by_test_id("penalty-text")).to_have_text(sanction.penalty_text)
    expect(penalty).to_contain_text(brl(guide.amount_brl))  # R$ 1.234,56, never 1234.56
    steps = phone.get_by_test_id("next-steps")
    expect(steps).to_contain_text(f"Pague a guia {guide.number}: venceu em {guide.due_on:%d/%m/%Y}.")

    phone.goto(f"{live_server.url}/portal/pagamentos/{guide.pk}/")
    phone.get_by_role("button", name="Copiar o código PIX").click()
    expect(phone.get_by_role("status").filter(has_text="Código copiado.")).to_be_visible()
    assert phone.evaluate("navigator.clipboard.readText()") == guide.pix_payload
