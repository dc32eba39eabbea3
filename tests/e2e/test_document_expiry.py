"""A school-van operator's CNH expires: the daily sweep runs, and the public page a parent opens from the QR code,
the operator's portal and the platforms' check all say the van is irregular, with the article. The operator sends
the renewed CNH through the portal and all three are
regular again once an analyst of the secretariat has accepted the copy (until then the old, expired CNH counts);
the platforms' change feed carries both changes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.utils import timezone
from playwright.sync_api import APIRequestContext, Browser, FilePayload, Page, expect

from apps.licensing.casebook import MINIMAL_PDF, Case, pdf, pf_case
from apps.licensing.models import Permit
from apps.licensing.sweep import run_sweep
from apps.licensing.tests.conftest import issue_permit
from apps.licensing.urls_public import verify_path
from apps.platforms.services import credential_issue, platform_create
from apps.portal.choices import PortalRole
from apps.portal.services import portal_account_create
from apps.registry.models import Document
from apps.registry.services import document_upload, driver_update
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-do-portal-123"
PDF: FilePayload = {"name": "cnh.pdf", "mimeType": "application/pdf", "buffer": MINIMAL_PDF}
ARTICLE = "art. 9º, III"


@pytest.fixture(autouse=True)
def _isolated(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PUBLIC_MUNICIPALITY_TTL = 0
    caches["default"].clear()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="pt-BR", viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _licensed(olimpia: Municipality, today: dt.date) -> tuple[Case, Permit, Document]:
    """A van licensed a month ago whose holder's CNH (on record and on paper) ended yesterday."""
    start = today - dt.timedelta(days=30)
    case = pf_case(olimpia, 71, "Sebastião Transporte Escolar", as_of=start)
    permit = issue_permit(case, as_of=start)
    cnh = document_upload(
        actor=None,
        owner=case.person,
        kind="cnh",
        upload=pdf(),
        issue_date=start - dt.timedelta(days=1800),
        expiry_date=today - dt.timedelta(days=1),
        as_of=start,
        regime_id="olimpia_sp_escolar",
    )
    driver_update(actor=None, driver=case.driver, as_of=start, cnh_expiry=today - dt.timedelta(days=1))
    return case, permit, cnh


def _check(api: APIRequestContext, base: str, ibge: str, token: str, cpf: str) -> dict[str, Any]:
    response = api.post(
        f"{base}/api/v1/platform/{ibge}/checks/",
        data={"drivers": [cpf]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.ok, response.text()
    return dict(response.json()["drivers"][0])


def _feed(api: APIRequestContext, base: str, ibge: str, token: str) -> list[str]:
    response = api.get(
        f"{base}/api/v1/platform/{ibge}/changes/?since=0", headers={"Authorization": f"Bearer {token}"}
    )
    return [change["kind"] for change in response.json()["results"]]


def _public_page_says(phone: Page, url: str, status: str) -> None:
    phone.goto(url)
    expect(phone.get_by_test_id("verdict")).to_have_attribute("data-status", status)


def _analyst_accepts_the_copy(page: Page, base: str, ibge: str) -> None:
    sign_in(page, base, "rita.analista")
    page.goto(f"{base}/municipios/{ibge}/portal/documentos-enviados/")
    page.get_by_role("button", name="Aceitar a cópia").click()
    expect(page.get_by_role("alert").first).to_contain_text("aceito")
    expect(page.get_by_test_id("no-pending-submission")).to_be_visible()


def test_an_expired_cnh_turns_public_page_portal_and_platform_check_irregular_until_renewed(
    phone: Page, page: Page, live_server: Any, olimpia: Municipality, make_staff: Any
) -> None:
    today = timezone.localdate()
    make_staff("rita.analista", (olimpia, Role.ANALYST), full_name="Rita Analista")
    case, permit, cnh = _licensed(olimpia, today)
    platform = platform_create(actor=None, name="Roda Já Mobilidade", cnpj="11222333000181")
    token = credential_issue(
        actor=None, platform=platform, municipality=olimpia, webhook_url="http://127.0.0.1:9/"
    ).token
    portal_account_create(
        actor=None,
        operator=case.operator,
        role=PortalRole.OPERATOR,
        username="sebastiao.portal",
        password=PASSWORD,
        full_name="Sebastião",
    )
    cpf, base, public_url = (
        case.person.cpf,
        live_server.url,
        f"{live_server.url}{verify_path(permit.qr_token)}",
    )
    _public_page_says(phone, public_url, "irregular")  # the law's answer today, before any sweep

    run_sweep(today)
    _public_page_says(phone, public_url, "irregular")
    expect(phone.get_by_test_id("status-message")).to_contain_text("NÃO pode transportar passageiros")
    expect(phone.get_by_test_id("status-reason")).to_contain_text("Carteira Nacional de Habilitação (CNH)")
    expect(phone.get_by_test_id("status-reason")).to_contain_text(f"vencido desde {today:%d/%m/%Y}")
    expect(phone.get_by_test_id("status-articles")).to_contain_text(ARTICLE)
    answer = _check(phone.request, base, olimpia.ibge_code, token, cpf)
    assert (answer["authorized"], answer["status"]) == (False, "irregular")
    assert any(ARTICLE in text for text in answer["articles"]) and "CNH" in answer["reason"]

    sign_in(phone, base, "sebastiao.portal", PASSWORD, path="/portal/entrar/")
    card = phone.get_by_test_id(f"permit-{permit.pk}")
    expect(card.get_by_test_id("legal-status")).to_have_text("Irregular")
    expect(card.get_by_test_id("legal-articles")).to_contain_text(ARTICLE)
    phone.get_by_role("link", name="Documentos").first.click()
    phone.get_by_test_id(f"document-{cnh.pk}").get_by_role("link", name="Enviar documento renovado").click()
    phone.locator("#id_file").set_input_files([PDF])
    phone.get_by_label("Data de emissão").fill(today.isoformat())
    phone.get_by_label("Validade impressa").fill((today + dt.timedelta(days=3650)).isoformat())
    phone.get_by_role("button", name="Enviar documento").click()
    expect(phone.get_by_role("alert").first).to_contain_text("aguardando a validação da secretaria")
    expect(phone.get_by_test_id(f"submission-{cnh.pk}")).to_have_attribute("data-state", "pending")
    phone.get_by_role("link", name="Resumo").first.click()  # not valid yet: the old CNH still counts
    expect(phone.get_by_test_id(f"permit-{permit.pk}").get_by_test_id("legal-status")).to_have_text(
        "Irregular"
    )

    _analyst_accepts_the_copy(page, base, olimpia.ibge_code)
    phone.reload()
    expect(phone.get_by_test_id(f"permit-{permit.pk}").get_by_test_id("legal-status")).to_have_text("Regular")

    _public_page_says(phone, public_url, "regular")
    expect(phone.get_by_test_id("status-message")).to_contain_text("Pode transportar passageiros hoje.")
    answer = _check(phone.request, base, olimpia.ibge_code, token, cpf)
    assert (answer["authorized"], answer["status"], answer["reason"]) == (True, "regular", "")
    assert _feed(phone.request, base, olimpia.ibge_code, token) == ["issued", "irregular", "regularized"]
