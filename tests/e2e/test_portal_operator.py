"""The operator portal in the browser, on a phone: a licensed operator signs in, reads the notice of its auto
among its notifications (avisos), sends the renewed CRLV of the vehicle (it waits for the secretariat's
validation) and files a defence with an attachment against an auto notified
yesterday, inside the deadline the engine computed; the pages fit a phone screen and another operator's auto
answers 404."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import FilePayload, Page, expect

from apps.accounts.models import User
from apps.dueprocess.models import Appeal, AppealAttachment
from apps.dueprocess.tests.helpers import notify, open_case
from apps.licensing.casebook import MINIMAL_PDF, Case, pf_case
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.portal.choices import PortalRole
from apps.portal.models import DocumentSubmission
from apps.portal.services import portal_account_create
from apps.registry.models import Document
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in
from .test_enforcement_phone import PHONE, WIDEST

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "senha-do-portal-123"
PDF: FilePayload = {"name": "documento.pdf", "mimeType": "application/pdf", "buffer": MINIMAL_PDF}


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def _fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, page.evaluate(WIDEST)


def _licensed_with_auto(municipality: Municipality, agent: User, number: int, name: str) -> tuple[Case, Any]:
    case = pf_case(municipality, number, name, as_of=AS_OF)
    issue_permit(case)
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    auto = open_case(municipality, agent, code="OLI-23-I", plate=case.vehicle.plate, on=yesterday)
    notify(auto, agent, yesterday)
    return case, auto


def test_an_operator_renews_a_document_and_files_a_defence_on_the_phone(
    phone: Page, live_server: Any, olimpia: Municipality, make_staff: Any
) -> None:
    agent = make_staff("otavio.agente", (olimpia, Role.ENFORCEMENT_AGENT), full_name="Otávio Agente")
    case, auto = _licensed_with_auto(olimpia, agent, 1, "João da Silva")
    _other, other_auto = _licensed_with_auto(olimpia, agent, 7, "Bruno Outro")
    portal_account_create(
        actor=None,
        operator=case.operator,
        role=PortalRole.OPERATOR,
        username="joao.portal",
        password=PASSWORD,
        full_name="João da Silva",
    )
    crlv = Document.objects.get(vehicle=case.vehicle, kind="crlv")

    sign_in(phone, live_server.url, "joao.portal", PASSWORD, path="/portal/entrar/")
    expect(phone.get_by_role("heading", name="O que vence primeiro")).to_be_visible()
    _fits_the_phone(phone)

    # The auto's notice is told in the portal: one unread in the menu, the deadline on the list, read once seen.
    phone.get_by_role("link", name="Avisos 1 não lidos").tap()
    unread = phone.locator(".outorga-portal-card--unread")
    expect(unread).to_have_count(1)
    expect(unread).to_contain_text(f"Notificação da autuação — auto {auto.number}")
    expect(unread).to_contain_text("prazo até")
    _fits_the_phone(phone)
    unread.get_by_role("link", name="Ver e agir").tap()
    expect(phone.get_by_test_id("appeal-window")).to_contain_text("prazo até")
    expect(phone.get_by_role("link", name="Avisos", exact=True)).to_be_visible()

    phone.get_by_role("link", name="Documentos").first.tap()
    phone.get_by_test_id(f"document-{crlv.pk}").get_by_role("link", name="Enviar documento renovado").tap()
    today = timezone.localdate()
    phone.locator("#id_file").set_input_files([PDF])
    phone.get_by_label("Data de emissão").fill(today.isoformat())
    phone.get_by_label("Validade impressa").fill((today + dt.timedelta(days=365)).isoformat())
    phone.get_by_role("button", name="Enviar documento").tap()
    expect(phone.get_by_role("alert").first).to_contain_text("Documento enviado")
    expect(phone.get_by_test_id(f"submission-{crlv.pk}")).to_contain_text(
        "Aguardando validação da secretaria"
    )
    assert DocumentSubmission.objects.filter(renews=crlv, uploaded_by__username="joao.portal").exists()

    phone.get_by_role("link", name="Autos e recursos").tap()
    phone.get_by_role("link", name=f"Auto {auto.number}").tap()
    expect(phone.get_by_test_id("appeal-window")).to_contain_text("prazo até")
    phone.get_by_label("Razões da defesa ou do recurso").fill("O veículo estava limpo; seguem as fotos.")
    phone.locator("#id_attachments").set_input_files([PDF])
    phone.get_by_role("button", name="Protocolar").tap()
    expect(phone.get_by_role("alert").first).to_contain_text("protocolado em")
    _fits_the_phone(phone)
    appeal = Appeal.objects.get(case=auto)
    assert appeal.filed_by_portal and not appeal.late
    assert AppealAttachment.objects.filter(appeal=appeal).count() == 1

    response = phone.goto(f"{live_server.url}/portal/autos/{other_auto.pk}/")
    assert response is not None and response.status == 404
