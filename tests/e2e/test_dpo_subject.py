"""The encarregado (DPO) answers "who read or changed my data" and registers a data-subject request."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from apps.accounts.models import User
from apps.registry.services import person_create
from apps.tenancy.models import Municipality

from .conftest import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_dpo_finds_a_subject_sees_the_history_and_registers_a_request(
    page: Page, live_server: Any, auditor_olimpia: User, analyst_olimpia: User, olimpia: Municipality
) -> None:
    person_create(
        actor=analyst_olimpia,
        municipality=olimpia,
        cpf="52998224725",
        name="Maria Souza",
        as_of=timezone.localdate(),
    )
    sign_in(page, live_server.url, "dora.dpo")
    page.goto(f"{live_server.url}/auditoria/titulares/")
    page.get_by_label("CPF ou nome do titular").fill("529.982.247-25")
    page.get_by_role("button", name="Buscar").click()
    expect(page.get_by_role("cell", name="***.982.247-**")).to_be_visible()
    page.get_by_role("link", name="Maria Souza").click()
    expect(page.get_by_role("heading", name="Quem leu ou alterou os dados, e quando")).to_be_visible()
    expect(page.get_by_role("cell", name="Ana Analista")).to_be_visible()
    expect(page.get_by_text("Cadastro — pessoa")).to_be_visible()
    page.reload()  # opening the page was itself recorded
    expect(page.get_by_text("Leitura de dados pessoais").first).to_be_visible()

    page.goto(f"{live_server.url}/auditoria/requerimentos/novo/")
    page.get_by_label("Nome do titular").fill("Maria Souza")
    page.get_by_label("CPF do titular").fill("529.982.247-25")
    page.get_by_label("Contato para a resposta (e-mail, telefone ou endereço)").fill("maria@example.org")
    page.get_by_label("Direito solicitado").select_option("access")
    page.get_by_label("Pedido").fill("Quero saber quem acessou meus dados.")
    page.get_by_role("button", name="Registrar").click()
    due = timezone.localdate() + dt.timedelta(days=15)
    expect(page.get_by_text(f"prazo de resposta: {due:%d/%m/%Y}")).to_be_visible()
    expect(page.get_by_role("link", name="ver dados e acessos do titular")).to_be_visible()
