"""An administrator simulates "maximum vehicle age 15 → 10", waits for the task worker, reads which permit
flips and why, and downloads the list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from apps.licensing.models import Permit
from apps.licensing.tests.conftest import AS_OF, _media_root  # noqa: F401  (fixture reused)
from apps.platforms.tests.conftest import run_tasks
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality
from apps.whatif.tests.conftest import olimpia_fleet  # noqa: F401  (fixture reused)

from .conftest import sign_in
from .ux_checks import axe_violations, check_page, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_administrator_simulates_a_lower_age_limit_and_downloads_the_list(
    page: Page,
    live_server: Any,
    make_staff: Any,
    olimpia: Municipality,
    olimpia_fleet: dict[str, Permit],  # noqa: F811
    tmp_path: Path,
) -> None:
    admin = make_staff("adm.simulacao", (olimpia, Role.ADMINISTRATOR))
    errors: list[str] = []
    watch_console(page, errors)
    sign_in(page, live_server.url, admin.username)
    page.goto(f"{live_server.url}/municipios/{olimpia.ibge_code}/")
    page.get_by_role("link", name="Simular mudança na lei").first.click()
    page.get_by_label("Mudança a simular").select_option(
        label="Novo valor: Idade máxima do veículo, em anos de fabricação"
    )
    page.get_by_label("Novo valor").fill("10")
    page.get_by_label("Situação dos registros em").fill(AS_OF.isoformat())
    page.get_by_role("button", name="Simular").click()

    expect(page.get_by_test_id("whatif-progress")).to_have_attribute("data-state", "queued")
    run_tasks()  # the worker judges the records; the open page learns it on its next poll

    report = page.get_by_test_id("whatif-report")
    expect(report).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("permits-changed")).to_have_text("1 de 2 alvarás em vigor")
    row = page.get_by_test_id("whatif-outcome")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(olimpia_fleet["old"].vehicle.plate)
    expect(row).to_contain_text("art. 13, II")
    # The crawler's checks (tests/e2e/test_ux_crawl.py), on the report and on the form with its history.
    assert not axe_violations(page)
    report_url = page.url
    problems = check_page(page, report_url, errors).problems
    problems += check_page(
        page, f"{live_server.url}/municipios/{olimpia.ibge_code}/simulacoes/", errors
    ).problems
    assert not problems, problems
    page.goto(report_url)
    with page.expect_download() as download:
        page.get_by_test_id("download-csv").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert olimpia_fleet["old"].vehicle.plate in saved.read_text(encoding="utf-8-sig")
