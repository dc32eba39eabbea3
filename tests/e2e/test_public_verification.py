"""A parent at the school gate, on a phone, checks a school van: by typing its plate, then by scanning the QR
code printed on its permit. Then reports a van with no permit. No login anywhere.

The permit is issued through the licensing services (apps.licensing.casebook rows, as the clerks would leave
them). The QR code is read back from the permit PDF the way a phone camera would (pdftoppm + zbarimg), so the
test follows the printed code, not a URL it built itself.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.utils import timezone
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from apps.licensing import services
from apps.licensing.casebook import pf_case
from apps.licensing.models import Permit
from apps.licensing.pdf import permit_pdf
from apps.licensing.urls_public import verify_path
from apps.public.models import Complaint
from apps.tenancy.models import Municipality
from apps.tenancy.services import municipality_create
from outorga.pytest_plugin import require_tools

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _isolated(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    caches["default"].clear()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        locale="pt-BR",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def van(db: None) -> Permit:
    """An Olímpia school van with a permit issued today."""
    today = timezone.localdate()
    olimpia = municipality_create(
        actor=None, ibge_code="3533908", name="Olímpia", uf="SP", regimes=["olimpia_sp_escolar"]
    )
    case = pf_case(olimpia, 61, "Sebastião Transporte Escolar", as_of=today)
    application = services.application_create(
        actor=None,
        operator=case.operator,
        kind="vehicle_permit",
        as_of=today,
        vehicle=case.vehicle,
        enrolled_students=9000,
        carries_children_under_4_or_pcd=False,
    )
    for move in (
        services.application_submit,
        services.application_start_analysis,
        services.application_require_inspection,
    ):
        application = move(application=application, actor=None, as_of=today)
    services.application_inspection_passed(
        application=application, performed_on=today, actor=None, as_of=today
    )
    services.application_approve(application=application, actor=None, as_of=today)
    return Permit.objects.select_related("vehicle", "municipality").get(application=application)


def scan_qr(permit: Permit, base_url: str, folder: Path) -> str:
    """What the phone camera reads off the printed permit."""
    require_tools("pdftoppm", package="poppler-utils")
    require_tools("zbarimg", package="zbar-tools")
    pdf = folder / "alvara.pdf"
    pdf.write_bytes(permit_pdf(permit, base_url + verify_path(permit.qr_token)))
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-singlefile", str(pdf), str(folder / "alvara")], check=True
    )
    decoded = subprocess.run(
        ["zbarimg", "-q", "--raw", str(folder / "alvara.png")], capture_output=True, text=True
    )
    return decoded.stdout.strip()


def test_a_parent_checks_a_van_by_plate_on_a_phone(phone: Page, live_server: Any, van: Permit) -> None:
    # A town listed before Olímpia: the plate must be found without choosing (or defaulting to) any town.
    municipality_create(
        actor=None, ibge_code="3500105", name="Adamantina", uf="SP", regimes=["olimpia_sp_escolar"]
    )
    phone.goto(f"{live_server.url}/consulta/")
    expect(phone.get_by_label("Município")).to_have_value("")
    phone.get_by_label("Placa ou número da autorização").fill(van.vehicle.plate.lower())
    phone.get_by_role("button", name="Consultar").tap()
    verdict = phone.get_by_test_id("verdict")
    expect(verdict).to_have_attribute("data-status", "regular")
    expect(phone.get_by_test_id("status-message")).to_contain_text("Pode transportar passageiros hoje.")
    expect(phone.get_by_test_id("permit-number")).to_have_text(f"nº {van.number}")
    expect(phone.get_by_test_id("holder")).to_have_text("Sebastião Transporte Escolar")
    expect(phone.get_by_test_id("vehicle")).to_have_text("Volkswagen Kombi")
    expect(phone.get_by_test_id("municipality")).to_have_text("Olímpia-SP")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
    assert van.operator.person.cpf not in phone.content()  # type: ignore[union-attr]


def test_a_parent_scans_the_qr_code_and_a_revoked_code_stops_working(
    phone: Page, live_server: Any, van: Permit, tmp_path: Path
) -> None:
    url = scan_qr(van, live_server.url, tmp_path)
    assert url == f"{live_server.url}/verificar/{van.qr_token}/"
    phone.goto(url)
    expect(phone.get_by_test_id("verdict")).to_have_attribute("data-status", "regular")
    expect(phone.get_by_test_id("plate")).to_have_text(van.vehicle.plate)
    services.permit_revoke(permit=van, actor=None, as_of=timezone.localdate(), reason="Cassação.")
    phone.goto(url)
    expect(phone.get_by_role("heading", name="Código não encontrado")).to_be_visible()
    expect(phone.get_by_test_id("status-message")).to_contain_text("substituído")


def csp_violations(page: Page) -> list[str]:
    """Console messages of what the Content-Security-Policy blocked on this page (inline script or style)."""
    blocked: list[str] = []

    def keep(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    page.on("console", keep)
    return blocked


def test_a_parent_reports_a_van_without_a_permit(phone: Page, live_server: Any, van: Permit) -> None:
    blocked = csp_violations(phone)
    phone.goto(f"{live_server.url}/consulta/?municipio=3533908&q=ZZZ9Z99")
    expect(phone.get_by_test_id("verdict")).to_have_attribute("data-status", "unknown")
    phone.get_by_role("link", name="Denunciar um problema").tap()
    expect(phone.get_by_label("Placa do veículo (se souber)")).to_have_value("ZZZ9Z99")
    phone.get_by_label("Qual é o problema?").select_option("no_permit")
    phone.get_by_label("Quando aconteceu?").fill(timezone.localdate().isoformat())
    phone.get_by_label("Conte o que aconteceu").fill("Uma van sem identificação levou crianças da escola.")
    phone.get_by_role("button", name="Enviar denúncia").tap()
    expect(phone.get_by_role("heading", name="Denúncia registrada")).to_be_visible()
    complaint = Complaint.objects.get()
    expect(phone.get_by_role("alert")).to_contain_text(complaint.number)
    assert (complaint.plate, complaint.category, complaint.permit) == ("ZZZ9Z99", "no_permit", None)
    assert Municipality.objects.get(pk=complaint.municipality_id).ibge_code == "3533908"
    assert blocked == []  # the proof-of-work script and the pages run under the strict CSP
