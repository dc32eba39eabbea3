"""An analyst takes one case per regime from its registration to an issued permit whose PDF downloads, in the
browser: an Olímpia natural person, a Votuporanga company and a Patrocínio app driver. Each also meets a legal
refusal that cites its article.

The registry rows (person, company, vehicle, the documents each law asks for) come from apps.licensing.casebook,
through the registry services, as the registration clerks would have left them. The inspection result arrives
the way apps.inspections delivers it (application_inspection_passed); the fee payment the way finance does.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.finance.services import fee_schedule_create, finance_settings_save, payment_register
from apps.lawconfig.services import fiscal_unit_value_set, parameter_value_set
from apps.licensing import services
from apps.licensing.casebook import Case, extra_vehicle, pf_case, pj_case
from apps.licensing.models import Application, Permit
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = "/tmp/outorga-application.png"


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def today() -> dt.date:
    return timezone.localdate()


def log_in(page: Page, live_server: Any, username: str) -> None:
    sign_in(page, live_server.url, username)


def click_action(page: Page, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


CHILDREN = "Transporta crianças menores de 4 anos ou pessoas com deficiência?"


def create_application(
    page: Page,
    live_server: Any,
    case: Case,
    vehicle_pk: int,
    *,
    students: bool = False,
    children: bool = False,
    platform: bool = False,
) -> Application:
    """The form asks the enrolled students, the children question and the platform's notice only where the
    regime's law asks them, and the platform's notice only for a temporary vehicle (static/js toggle)."""
    ibge = case.operator.municipality.ibge_code
    page.goto(f"{live_server.url}/municipios/{ibge}/licenciamento/autorizatarios/{case.operator.pk}/")
    page.get_by_role("link", name="Novo requerimento").click()
    if platform:
        page.get_by_label("Tipo de requerimento").select_option("temporary_vehicle")
        expect(page.get_by_label("Comunicação da plataforma em")).to_be_visible()
    page.get_by_label("Tipo de requerimento").select_option("vehicle_permit")
    expect(page.get_by_label("Comunicação da plataforma em")).to_be_hidden()
    page.get_by_label("Veículo").select_option(str(vehicle_pk))
    if students:
        page.get_by_label("Alunos matriculados").fill("9000")
    else:
        expect(page.get_by_label("Alunos matriculados")).to_have_count(0)
    if children:
        page.get_by_label(CHILDREN).select_option("false")
    else:
        expect(page.get_by_label(CHILDREN)).to_have_count(0)
    page.get_by_role("button", name="Criar requerimento").click()
    expect(page.get_by_test_id("application-state")).to_have_text("Rascunho")
    return Application.objects.filter(vehicle_id=vehicle_pk).latest("pk")


def to_analysis(page: Page) -> None:
    click_action(page, "Protocolar")
    click_action(page, "Iniciar análise")
    click_action(page, "Avaliar pela lei")
    expect(page.get_by_test_id("decision")).to_be_visible()


def inspection_passed(application: Application, today: dt.date) -> None:
    application.refresh_from_db()
    services.application_inspection_passed(
        application=application, performed_on=today, actor=None, as_of=today
    )


def approve_and_download(page: Page, tmp_path: Path) -> Permit:
    page.reload()
    click_action(page, "Deferir")
    expect(page.get_by_test_id("application-state")).to_have_text("Deferido")
    page.get_by_test_id("issued-permit").click()
    expect(page.get_by_test_id("permit-state")).to_have_text("Ativo")
    with page.expect_download() as download:
        page.get_by_test_id("permit-pdf").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF")
    number = page.get_by_test_id("permit-number").inner_text()
    return Permit.objects.get(number=number, municipality__ibge_code=page.url.split("/")[4])


def _analyst(make_staff: Callable[..., User], municipality: Municipality, username: str) -> User:
    return make_staff(username, (municipality, Role.ANALYST))


def test_olimpia_pf_gets_a_permit_and_a_second_one_is_refused_with_art_2(
    page: Page,
    live_server: Any,
    olimpia: Municipality,
    make_staff: Callable[..., User],
    today: dt.date,
    tmp_path: Path,
) -> None:
    _analyst(make_staff, olimpia, "ana.analista")
    case = pf_case(olimpia, 1, "João da Silva", as_of=today)
    log_in(page, live_server, "ana.analista")
    application = create_application(page, live_server, case, case.vehicle.pk, children=True)
    to_analysis(page)
    expect(page.locator('[data-finding="pf_quota"]')).to_contain_text("art. 2º")
    click_action(page, "Encaminhar para vistoria")
    expect(page.get_by_test_id("application-state")).to_have_text("Aguardando vistoria")
    inspection_passed(application, today)
    permit = approve_and_download(page, tmp_path)
    assert permit.operator == case.operator and permit.number.endswith(f"/{today.year}")

    second = extra_vehicle(case, 2, as_of=today)
    refused = create_application(page, live_server, case, second.pk, children=True)
    to_analysis(page)
    expect(page.locator('[data-finding="pf_quota"]')).to_have_attribute("data-status", "not_met")
    inspection_passed_directly(refused, today)
    page.reload()
    click_action(page, "Deferir")
    expect(page.get_by_role("alert")).to_contain_text("Lei 5.171/2025 (Olímpia), art. 2º")
    expect(page.get_by_test_id("application-state")).to_have_text("Em análise")
    assert not Permit.objects.filter(vehicle=second).exists()


def inspection_passed_directly(application: Application, today: dt.date) -> None:
    """The refused case skips the browser clicks already covered above: inspection requested and passed."""
    application.refresh_from_db()
    services.application_require_inspection(application=application, actor=None, as_of=today)
    inspection_passed(application, today)


@pytest.fixture
def votuporanga_fleet_cap(votuporanga: Municipality) -> None:
    """Votuporanga art. 4º-A leaves the fleet cap to a decree: set as its administrator would (lawconfig)."""
    parameter_value_set(
        actor=None,
        municipality=votuporanga,
        regime_id="votuporanga_sp_escolar",
        parameter="fleet_cap",
        valid_from=dt.date(2018, 3, 20),
        value=Decimal(60),
        cite="art4A",
        source="Decreto de teste",
    )


def test_votuporanga_pj_gets_a_permit_and_an_old_vehicle_is_refused_with_art_4(
    page: Page,
    live_server: Any,
    votuporanga: Municipality,
    make_staff: Callable[..., User],
    today: dt.date,
    tmp_path: Path,
    votuporanga_fleet_cap: None,
) -> None:
    _analyst(make_staff, votuporanga, "vera.analista")
    case = pj_case(votuporanga, 2, "Transportes Escolares Vila Ltda", "Marcos Pereira", as_of=today)
    log_in(page, live_server, "vera.analista")
    application = create_application(page, live_server, case, case.vehicle.pk, students=True)
    to_analysis(page)
    expect(page.locator('[data-finding="vehicle_quota"]')).to_contain_text("art. 5º")
    click_action(page, "Encaminhar para vistoria")
    inspection_passed(application, today)
    permit = approve_and_download(page, tmp_path)
    assert permit.operator.kind == "PJ"

    old = extra_vehicle(case, 3, as_of=today, manufacture_year=2005, model_year=2005)
    create_application(page, live_server, case, old.pk, students=True)
    to_analysis(page)
    expect(page.locator('[data-finding="vehicle_age"]')).to_have_attribute("data-status", "not_met")
    page.get_by_label("Observação").last.fill("Veículo acima da idade máxima.")
    click_action(page, "Indeferir")
    expect(page.get_by_test_id("application-state")).to_have_text("Indeferido")
    expect(page.locator('[data-event="denied"]')).to_contain_text("art. 4º, II, c")


def _patrocinio_fees(patrocinio: Municipality) -> None:
    fiscal_unit_value_set(
        actor=None,
        municipality=patrocinio,
        valid_from=dt.date(2026, 1, 1),
        value_brl=Decimal("100.0000"),
        cite="art8",
        source="Decreto (teste de navegador)",
    )
    finance_settings_save(
        actor=None,
        municipality=patrocinio,
        pix_key="financeiro@patrocinio.mg.gov.br",
        receiver_name="PREFEITURA DE PATROCINIO",
        receiver_city="PATROCINIO",
        guide_due_days=10,
    )
    fee_schedule_create(
        actor=None,
        municipality=patrocinio,
        regime_id=None,
        fee_kind="inspection",
        quantity=Decimal("0.25"),
        unit="ufm",
        cite="art8",
        valid_from=dt.date(2025, 1, 1),
    )


def test_patrocinio_driver_pays_the_art_8_fee_and_gets_the_authorization(
    page: Page,
    live_server: Any,
    patrocinio: Municipality,
    make_staff: Callable[..., User],
    today: dt.date,
    tmp_path: Path,
) -> None:
    _analyst(make_staff, patrocinio, "pedro.analista")
    _patrocinio_fees(patrocinio)
    case = pf_case(patrocinio, 3, "Paula Motorista", as_of=today)
    log_in(page, live_server, "pedro.analista")
    application = create_application(page, live_server, case, case.vehicle.pk, platform=True)
    to_analysis(page)
    fee_finding = page.locator('[data-finding="inspection_fee"]')
    expect(fee_finding).to_have_attribute("data-status", "not_met")
    expect(fee_finding).to_contain_text("art. 8º")
    page.get_by_label("Taxa").select_option("inspection")
    click_action(page, "Emitir guia da taxa")
    expect(page.get_by_test_id("application-state")).to_have_text("Aguardando taxa")
    application.refresh_from_db()
    guide = application.fee_guide
    assert guide is not None and guide.amount_brl == Decimal("25.00")
    payment_register(
        actor=None,
        guide=guide,
        paid_on=today,
        amount_brl=guide.amount_brl,
        method="pix",
        reference="E2E-PIX",
        as_of=today,
    )
    page.reload()
    expect(page.get_by_test_id("application-state")).to_have_text("Aguardando vistoria")
    page.screenshot(path=SCREENSHOT, full_page=True)
    inspection_passed(application, today)
    page.reload()
    click_action(page, "Avaliar pela lei")
    expect(page.locator('[data-finding="inspection_fee"]')).to_have_attribute("data-status", "met")
    permit = approve_and_download(page, tmp_path)
    assert permit.regime_id == "patrocinio_mg_aplicativo"
