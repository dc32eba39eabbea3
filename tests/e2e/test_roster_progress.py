"""An analyst sends a platform's roster in the browser and watches the progress page reach the end by itself.

The answer comes before any line is read (the file waits for the task worker); the page then asks for its
progress panel every 2 seconds (htmx, no inline script under the strict CSP) until the import finishes.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from apps.platforms.models import RosterEntry
from apps.platforms.services import credential_issue, platform_create
from apps.platforms.tests.conftest import run_tasks
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ROSTER = (
    "cpf;nome;placa;categoria_cnh;validade_cnh\n"
    "529.982.247-25;Ana Lima;ABC1D23;B;31/12/2030\n"
    "11144477735;João Silva;ABC-1234;AB;\n"
    "39053344705;Rita Paz;QWE2R34;b;2031-01-31\n"
)


def test_an_analyst_sends_a_roster_and_the_page_follows_it_to_the_end(
    page: Page, live_server: Any, make_staff: Any, patrocinio: Municipality
) -> None:
    csp_errors: list[str] = []
    page.on("console", lambda m: csp_errors.append(m.text) if "Content Security Policy" in m.text else None)
    platform = platform_create(actor=None, name="Roda Já Mobilidade", cnpj="11222333000181")
    credential_issue(actor=None, platform=platform, municipality=patrocinio)
    analyst = make_staff("ana.patrocinio", (patrocinio, Role.ANALYST))
    sign_in(page, live_server.url, analyst.username)

    page.goto(f"{live_server.url}/municipios/{patrocinio.ibge_code}/")
    page.get_by_role("link", name="Cadastros das plataformas").first.click()
    page.get_by_label("Plataforma").select_option(label="Roda Já Mobilidade")
    page.get_by_label("Arquivo CSV").set_input_files(
        {"name": "motoristas.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}
    )
    page.get_by_role("button", name="Enviar").click()

    panel = page.get_by_test_id("roster-progress")
    expect(panel).to_have_attribute("data-state", "queued")
    expect(panel).to_contain_text("Na fila")
    expect(page.get_by_test_id("expected")).to_have_text("3")
    assert not RosterEntry.objects.exists()

    run_tasks()  # the task worker takes the file; the open page learns it on its next poll

    expect(panel).to_have_attribute("data-state", "imported", timeout=15_000)
    expect(panel).to_contain_text("o cadastro anterior desta plataforma foi substituído")
    expect(page.get_by_test_id("read")).to_have_text("3")
    expect(page.get_by_test_id("stored")).to_have_text("3")
    assert RosterEntry.objects.count() == 3
    assert csp_errors == []
