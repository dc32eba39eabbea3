"""The installation's administrator enters next year's UFESP in the browser, once for every municipality whose
law uses it, and sees it listed with the act it is cited to."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from apps.accounts.testing import give_authenticator
from apps.lawconfig.models import ExternalValue
from apps.tenancy.choices import Role
from apps.tenancy.services import deployment_admin_create_first, membership_grant, municipality_create

from .conftest import sign_in
from .ux_checks import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Instalacao-Outorga-2026"


def test_the_installer_enters_next_years_ufesp_on_the_screen(page: Page, live_server: Any) -> None:
    installer = deployment_admin_create_first(
        username="instalador", email="ti@example.gov.br", password=PASSWORD, full_name="Equipe de TI"
    ).user
    give_authenticator(installer)
    olimpia = municipality_create(
        actor=None, ibge_code="3533908", name="Olímpia", uf="SP", regimes=["olimpia_sp_escolar"]
    )
    membership_grant(actor=None, user=installer, municipality=olimpia, role=Role.ADMINISTRATOR)
    sign_in(page, live_server.url, "instalador", PASSWORD)
    page.locator('[data-menu="deployment"]').click()
    page.get_by_role("link", name="Valores estaduais e federais").click()
    expect(page.get_by_role("heading", name="Valores estaduais e federais", level=1)).to_be_visible()
    assert axe_violations(page) == []

    page.get_by_label("Vigente a partir de").fill("2027-01-01")
    page.get_by_label("Valor", exact=True).fill("40,12")
    page.get_by_label("Ato que fixou o valor").fill("Comunicado DICAR-90/26 da SEFAZ-SP")
    page.get_by_label("Publicado em").fill("2026-12-18")
    page.get_by_role("button", name="Registrar valor").click()
    expect(page.get_by_role("alert").filter(has_text="Valor registrado")).to_be_visible()
    row = page.get_by_role("row").filter(has_text="01/01/2027")
    expect(row).to_contain_text("R$ 40,12")
    expect(row).to_contain_text("Comunicado DICAR-90/26 da SEFAZ-SP, publicado em 18/12/2026")
    assert ExternalValue.objects.current().filter(value="40.12").count() == 1
