"""A manager reads the report (charts with their tables, filters, the monthly PDF) and downloads a filtered list
as a spreadsheet, in the browser, with the strict CSP on (no inline style or script is needed for either)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.inspections.choices import InspectionKind
from apps.inspections.models import Inspection
from apps.licensing.casebook import pf_case
from apps.licensing.tests.conftest import issue_permit
from apps.registry.models import Vehicle
from apps.tenancy.models import Municipality

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = "/tmp/outorga-report.png"


@pytest.fixture(autouse=True)
def _media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def fleet(olimpia: Municipality) -> None:
    today = timezone.localdate()
    issue_permit(pf_case(olimpia, 1, "João da Silva", as_of=today), as_of=today)
    issue_permit(pf_case(olimpia, 2, "Maria Souza", as_of=today), as_of=today)


@pytest.fixture
def reinspection_due(olimpia: Municipality, fleet: None) -> Inspection:
    """A re-inspection whose legal deadline (the cure window) ends in three days."""
    due = timezone.localdate() + dt.timedelta(days=3)
    return Inspection.objects.create(
        municipality=olimpia,
        regime_id="olimpia_sp_escolar",
        vehicle=Vehicle.objects.filter(municipality=olimpia).earliest("pk"),
        kind=InspectionKind.REINSPECTION,
        checklist_kind=InspectionKind.REINSPECTION,
        scheduled_for=due,
        deadline=due,
        deadline_basis="Lei 5.171/2025 (Olímpia), art. 9º",
    )


def _csp_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console",
        lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None,
    )
    return errors


def test_a_manager_reads_the_report_and_prints_it(
    page: Page, live_server: Any, admin_olimpia: User, reinspection_due: Inspection
) -> None:
    errors = _csp_errors(page)
    sign_in(page, live_server.url, admin_olimpia.username)
    page.goto(f"{live_server.url}/municipios/3533908/")
    page.get_by_role("link", name="Relatórios").first.click()
    expect(page.get_by_role("heading", name="Relatórios de Olímpia")).to_be_visible()
    permits = page.locator('[data-section="permits"]')
    expect(permits.get_by_role("img")).to_be_visible()
    expect(permits.get_by_role("table")).to_contain_text("Vigentes")
    ages = page.locator('[data-section="vehicle_ages"]')
    expect(ages).to_contain_text("até 15 anos")
    expect(ages.locator("svg")).to_contain_text("limite legal")
    page.get_by_label("Período").select_option("6")
    page.get_by_role("button", name="Atualizar").click()
    expect(page.get_by_text("6 mês(es) até")).to_be_visible()
    assert page.locator('[data-section="permits"] tbody tr').count() == 6
    page.screenshot(path=SCREENSHOT, full_page=True)
    pdf_path = page.get_by_test_id("monthly-pdf").get_attribute("href") or ""
    response = page.request.get(f"{live_server.url}{pdf_path}")
    assert response.ok and response.body().startswith(b"%PDF")
    # The deadlines at risk: in the list with their article, and on their day in the calendar, linking to
    # the page where someone acts.
    deadlines = page.locator('[data-section="deadlines"]')
    expect(deadlines.get_by_test_id("deadlines-list")).to_contain_text("vence em 3 dia(s)")
    expect(deadlines.get_by_test_id("deadlines-list")).to_contain_text("art. 9º")
    day = deadlines.locator("td", has=page.get_by_role("link", name=re.compile("Vistoria: Nova vistoria")))
    expect(day.locator(".dia")).to_contain_text(str(reinspection_due.deadline.day))  # type: ignore[union-attr]
    day.get_by_role("link").click()
    expect(page).to_have_url(re.compile(rf"/vistorias/{reinspection_due.pk}/$"))
    assert errors == []


def test_a_filtered_list_downloads_as_a_brazilian_spreadsheet(
    page: Page, live_server: Any, admin_olimpia: User, fleet: None
) -> None:
    errors = _csp_errors(page)
    sign_in(page, live_server.url, admin_olimpia.username)
    page.goto(f"{live_server.url}/municipios/3533908/cadastro/condutores/")
    page.get_by_label("Buscar").fill("Maria")
    page.get_by_role("button", name="Buscar").click()
    expect(page.locator("[data-row-id]")).to_have_count(1)
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Baixar a lista (CSV)").click()
    download = download_info.value
    assert download.suggested_filename.startswith("condutores-3533908-")
    text = Path(download.path()).read_bytes().decode("utf-8")
    assert text.startswith("\ufeffNome;CPF;")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert [row[0] for row in rows[1:]] == ["Maria Souza"]
    assert errors == []
