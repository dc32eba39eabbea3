"""An agent on a phone (390×844) files an auto for each regime: plate lookup shows the permit, the infraction
is found by words, a photo is attached, the auto is printed and the offender is notified in person. Refusals
(no infraction chosen, a plate that is not a plate) keep the form with Portuguese messages and store nothing.
The due-process browser tests continue the same flow to the final penalty."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import FilePayload, Page, expect

from apps.accounts.models import User
from apps.enforcement.models import InfractionCase
from apps.licensing.casebook import Case, pf_case, pj_case, upload_documents
from apps.licensing.tests.conftest import _votuporanga_fleet_cap, issue_permit  # noqa: F401  (fixture reuse)
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
JPEG = b"\xff\xd8\xff\xc0\x00\x11\x08\x00\x01\x00\x01" + b"\x00" * 249 + b"\xff\xd9"  # a 1 × 1 frame
REGIMES = {
    "olimpia": ("higiene", "OLI-22-IV"),
    "votuporanga": ("traje", "VOT-9-I"),
    "patrocinio": ("logomarca", "PAT-5"),
}


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Any) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


def _licensed(municipality: Municipality, number: int) -> Case:
    today = timezone.localdate() - dt.timedelta(days=3)
    if municipality.ibge_code == "3557105":
        case = pj_case(municipality, number, "Transportes Escolares Vila Ltda", "Marcos Pereira", as_of=today)
    else:
        case = pf_case(municipality, number, "João da Silva", as_of=today)
    if municipality.ibge_code == "3148103":  # the inspection fee receipt Patrocínio asks for (art. 8)
        upload_documents(
            case.vehicle, ("inspection_fee_receipt",), as_of=today, regime_id="patrocinio_mg_aplicativo"
        )
    issue_permit(case, as_of=today)
    return case


def _log_in(page: Page, url: str, username: str) -> None:
    sign_in(page, url, username)


WIDEST = """() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 392)
  .map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 8).join(' | ')"""


def _fits_the_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, page.evaluate(WIDEST)


def _fill_auto(page: Page, plate: str, words: str, code: str) -> None:
    page.get_by_label("Placa").fill(plate)
    options = page.locator('[data-testid="infraction-options"] .br-radio')
    whole_catalog = options.count()
    page.get_by_label("Infração — busque por palavras").fill(words)
    expect(options).not_to_have_count(whole_catalog)  # the HTMX search swapped in the filtered list
    page.locator(f'label[for="inf-{code}"]').tap()
    expect(page.locator(f"#inf-{code}")).to_be_checked()
    recent = timezone.localtime() - dt.timedelta(hours=1)
    page.get_by_label("Data e hora da infração").fill(recent.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label("Local", exact=True).fill("Rua XV de Novembro, 100")
    page.get_by_label("Descrição da infração").fill("Constatado na saída da escola.")
    page.get_by_label("Sua matrícula").fill("F-77")
    photo: FilePayload = {"name": "foto.jpg", "mimeType": "image/jpeg", "buffer": JPEG}
    page.locator("#id_photos").set_input_files([photo])


@pytest.mark.parametrize("short", list(REGIMES))
def test_an_agent_files_an_auto_on_the_phone_and_notifies_in_person(
    phone: Page,
    live_server: Any,
    make_staff: Callable[..., User],
    request: pytest.FixtureRequest,
    short: str,
    _votuporanga_fleet_cap: None,  # noqa: F811
) -> None:
    municipality: Municipality = request.getfixturevalue(short)
    make_staff("ana.agente", (municipality, Role.ENFORCEMENT_AGENT), full_name="Ana Agente")
    licensed = _licensed(municipality, 60)
    words, code = REGIMES[short]
    _log_in(phone, live_server.url, "ana.agente")
    phone.goto(f"{live_server.url}/municipios/{municipality.ibge_code}/fiscalizacao/autos/novo/")
    _fits_the_phone(phone)

    phone.get_by_label("Placa").fill("12")
    phone.get_by_role("button", name="Lavrar auto").tap()
    expect(phone.get_by_text("Infração: escolha uma infração do catálogo").first).to_be_visible()
    expect(phone.get_by_text("Placa: use o formato antigo").first).to_be_visible()
    assert not InfractionCase.objects.exists()

    _fill_auto(phone, licensed.vehicle.plate.lower(), words, code)
    expect(phone.get_by_test_id("plate-result")).to_contain_text(licensed.operator.holder_name)
    phone.screenshot(path=f"/tmp/outorga-enforcement-form-{short}.png", full_page=True)
    phone.get_by_role("button", name="Lavrar auto").tap()

    expect(phone.get_by_role("heading", level=1)).to_contain_text("Auto de infração AI-0001/")
    expect(phone.get_by_test_id("case-state")).to_have_text("Lavrado")
    expect(phone.get_by_test_id("case-timeline")).to_be_visible()
    expect(phone.get_by_test_id("evidence-list")).to_contain_text("imagem JPEG")
    _fits_the_phone(phone)
    with phone.expect_download() as download:
        phone.evaluate(
            "url => { const a = document.createElement('a'); a.href = url; a.download = 'auto.pdf'; "
            "document.body.appendChild(a); a.click(); }",
            phone.get_by_test_id("auto-pdf").get_attribute("href"),
        )
    assert Path(download.value.path()).read_bytes()[:4] == b"%PDF"

    phone.get_by_label("Meio").select_option("in_person")
    phone.get_by_label("Assinado por (pessoalmente)").fill("João da Silva")
    phone.get_by_role("button", name="Registrar notificação").tap()
    expect(phone.get_by_test_id("case-state")).to_have_text("Notificado")
    expect(phone.get_by_test_id("ciencia").first).to_have_text(timezone.localdate().strftime("%d/%m/%Y"))
    phone.screenshot(path=f"/tmp/outorga-enforcement-case-{short}.png", full_page=True)
    case = InfractionCase.objects.get()
    assert case.permit is not None and case.operator == licensed.operator and case.evidence.count() == 1


def test_an_unknown_plate_in_olimpia_is_clandestine_transport(
    phone: Page, live_server: Any, make_staff: Callable[..., User], olimpia: Municipality
) -> None:
    make_staff("ana.agente", (olimpia, Role.ENFORCEMENT_AGENT), full_name="Ana Agente")
    _log_in(phone, live_server.url, "ana.agente")
    phone.goto(f"{live_server.url}/municipios/{olimpia.ibge_code}/fiscalizacao/autos/novo/")
    phone.get_by_label("Placa").fill("XYZ1A23")
    expect(phone.get_by_test_id("clandestine")).to_contain_text("transporte clandestino")
    expect(phone.get_by_test_id("clandestine")).to_contain_text("art. 27")
    _fill_auto(phone, "XYZ1A23", "clandestino", "OLI-27")
    phone.get_by_role("button", name="Lavrar auto").tap()
    expect(phone.get_by_test_id("clandestine-tag")).to_be_visible()
