"""Registry screens in headless Chromium: an analyst registers a person, an operator, a vehicle and a document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect

from apps.accounts.models import User
from apps.registry.models import Document, Operator, Vehicle
from apps.registry.tests.conftest import PDF_BYTES
from tests.e2e import conftest as e2e

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_allow_orm_under_playwright = e2e._allow_orm_under_playwright
browser = e2e.browser
page = e2e.page

VEHICLE = {
    "Placa": "ABC-1234",
    "Marca": "Volkswagen",
    "Modelo": "Kombi Escolar",
    "Ano de fabricação": "2020",
    "Ano do modelo": "2021",
    "Lugares (capacidade)": "12",
    "Portas": "4",
    "Código IBGE do município de registro": "3533908",
    "Município de registro": "Olímpia",
    "Proprietário (nome)": "João da Silva",
    "Proprietário (CPF ou CNPJ)": "529.982.247-25",
}


def log_in(page: Page, live_server: Any, username: str) -> None:
    e2e.sign_in(page, live_server.url, username)


def _fill(page: Page, values: dict[str, str]) -> None:
    for label, value in values.items():
        page.get_by_label(label, exact=True).fill(value)


def test_analyst_registers_an_operator_with_vehicle_and_document(
    page: Page, live_server: Any, analyst_olimpia: User, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    log_in(page, live_server, "ana.analista")
    page.get_by_role("link", name="Abrir o cadastro").click()
    page.get_by_role("link", name="Nova pessoa").click()
    _fill(page, {"CPF": "529.982.247-26", "Nome": "João da Silva", "Município": "Olímpia"})
    page.get_by_role("button", name="Salvar").click()
    expect(page.get_by_text("CPF: número inválido (dígitos verificadores não conferem).")).to_be_visible()
    page.get_by_label("CPF", exact=True).fill("529.982.247-25")
    page.get_by_role("button", name="Salvar").click()

    page.get_by_role("link", name="Novo autorizatário").click()
    page.get_by_label("CPF (PF) ou CNPJ (PJ) do titular já cadastrado").fill("52998224725")
    page.get_by_role("button", name="Salvar").click()
    expect(page.get_by_role("heading", name="João da Silva", level=1)).to_be_visible()

    page.get_by_role("link", name="Cadastrar veículo").click()
    _fill(page, VEHICLE | {"RENAVAM": "63977637131"})
    page.get_by_label("Categoria").select_option("aluguel")
    page.get_by_label("Vínculo com o veículo").select_option("own")
    page.get_by_role("button", name="Salvar").click()
    expect(page.get_by_text("RENAVAM: número inválido (dígito verificador não confere).")).to_be_visible()
    assert not Vehicle.objects.exists()
    page.get_by_label("RENAVAM", exact=True).fill("63977637130")
    page.get_by_role("button", name="Salvar").click()
    expect(page.get_by_role("cell", name="ABC-1234")).to_be_visible()

    page.get_by_role("link", name="Enviar documento").click()
    vehicle = Vehicle.objects.get()
    page.get_by_label("Documento de").select_option(f"vehicle:{vehicle.pk}")
    page.get_by_label("Tipo de documento").select_option("crlv")
    crlv_file: FilePayload = {"name": "crlv.pdf", "mimeType": "application/pdf", "buffer": PDF_BYTES}
    page.get_by_label("Arquivo (PDF, JPEG ou PNG, até 10 MB)").set_input_files(files=crlv_file)
    page.get_by_label("Data de emissão").fill("2026-01-05")
    page.get_by_label("Validade impressa (se houver)").fill("2099-12-31")
    page.get_by_role("button", name="Salvar").click()
    expect(page.get_by_text("vale até 31/12/2099")).to_be_visible()
    expect(page.get_by_text("art. 9º, XII").first).to_be_visible()
    assert Document.objects.get().vehicle == vehicle
    assert Operator.objects.get().vehicles.count() == 1
