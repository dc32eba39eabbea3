"""Acts that hold up outside the system, in a real browser: anyone uploads an act's PDF on the public page and
is told it is authentic (or not), in Portuguese and without an accessibility violation; and an electronic notice
opened by the holder in the portal starts the deadline the staff see on the case."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from apps.dueprocess.tests.helpers import open_case
from apps.enforcement.choices import NoticeChannel, NoticePurpose
from apps.enforcement.services.notices import notice_send
from apps.licensing.casebook import pf_case, upload_documents
from apps.licensing.pdf import permit_pdf
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.portal.choices import PortalRole
from apps.portal.services import portal_account_create
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in
from .ux_checks import axe_violations, check_page, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-do-portal-123"


@pytest.fixture
def page(browser: Browser) -> Any:
    context = browser.new_context(locale="pt-BR", viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_anyone_uploads_an_act_and_is_told_it_is_authentic(
    page: Page, live_server: Any, olimpia: Municipality, tmp_path: Path
) -> None:
    permit = issue_permit(pf_case(olimpia, 1, "João da Silva", as_of=AS_OF))
    original = tmp_path / "alvara.pdf"
    original.write_bytes(permit_pdf(permit, f"{live_server.url}/verificar/{permit.qr_token}/"))
    errors: list[str] = []
    watch_console(page, errors)
    report = check_page(page, f"{live_server.url}/verificar-documento/", errors)
    assert report.problems == []
    assert axe_violations(page) == []

    page.get_by_label("Arquivo PDF do documento").set_input_files(str(original))
    page.get_by_role("button", name="Verificar").click()
    verdict = page.get_by_test_id("document-verdict")
    expect(verdict).to_contain_text("Documento autêntico e sem alterações")
    expect(verdict).to_contain_text("Não assinado digitalmente")
    expect(page.get_by_test_id("current-state")).to_contain_text("Pode transportar passageiros hoje.")
    assert axe_violations(page) == []

    altered = tmp_path / "alterado.pdf"
    altered.write_bytes(original.read_bytes().replace(b"/Producer", b"/Produces", 1))
    page.get_by_label("Arquivo PDF do documento").set_input_files(str(altered))
    page.get_by_role("button", name="Verificar").click()
    expect(page.get_by_test_id("verdict-label")).to_have_text("Documento alterado depois de emitido")


def test_a_notice_opened_in_the_portal_starts_the_deadline_shown_to_staff(
    browser: Browser, page: Page, live_server: Any, patrocinio: Municipality, make_staff: Any
) -> None:
    agent = make_staff("paulo.agente", (patrocinio, Role.ENFORCEMENT_AGENT), full_name="Paulo Agente")
    case = pf_case(patrocinio, 3, "Paula Motorista", as_of=AS_OF)
    upload_documents(
        case.vehicle, ("inspection_fee_receipt",), as_of=AS_OF, regime_id="patrocinio_mg_aplicativo"
    )
    issue_permit(case)
    on = dt.date(2026, 3, 12)
    portal_account_create(
        actor=None,
        operator=case.operator,
        role=PortalRole.OPERATOR,
        username="paula.portal",
        password=PASSWORD,
        full_name="Paula Motorista",
    )
    sign_in(page, live_server.url, "paula.portal", PASSWORD, path="/portal/entrar/")
    # The holder opts in to the electronic notice, accepting the terms the regime declares (art. 19, § 1º).
    page.goto(f"{live_server.url}/portal/notificacao-eletronica/")
    expect(page.get_by_test_id("electronic-terms")).to_contain_text("via eletrônica")
    page.locator('label[for="aceito"]').click()
    page.get_by_role("button", name="Aderir à notificação eletrônica").click()
    expect(page.get_by_test_id("electronic-standing")).to_contain_text("Adesão em vigor desde")
    assert axe_violations(page) == []
    auto = open_case(patrocinio, agent, code="PAT-3", plate=case.vehicle.plate, on=on)
    notice = notice_send(
        case=auto,
        actor=agent,
        purpose=NoticePurpose.INFRACTION,
        channel=NoticeChannel.ELECTRONIC,
        sent_on=on,
        as_of=on,
    )
    page.goto(f"{live_server.url}/portal/autos/{auto.pk}/")
    pdf_path = f"/portal/notificacoes/{notice.pk}/pdf/"
    with page.expect_response(lambda response: response.url.endswith(pdf_path)) as opened:
        page.locator(f'a[href="{pdf_path}"]').first.click()
    assert opened.value.status == 200

    staff = browser.new_context(locale="pt-BR").new_page()
    sign_in(staff, live_server.url, "paulo.agente")
    staff.goto(f"{live_server.url}/municipios/{patrocinio.ibge_code}/fiscalizacao/autos/{auto.pk}/")
    today = f"{timezone.localdate():%d/%m/%Y}"
    expect(staff.get_by_test_id("ciencia").first).to_have_text(today)
    expect(staff.get_by_test_id("notice-limit")).to_contain_text(f"recebimento do auto de infração, {today}")
    staff.context.close()
