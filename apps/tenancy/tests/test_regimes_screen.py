"""The regimes of an existing municipality: its administrator adds a law from a date or ends one from a date
(audited); the daily sweep moves a dated regime in or out; creating the municipality again names it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.tenancy import services
from apps.tenancy.models import Municipality

from .test_setup_services import GOOD_PASSWORD

pytestmark = pytest.mark.django_db


def url(municipality: Municipality) -> str:
    return reverse("tenancy:regimes", args=[municipality.ibge_code])


def test_the_administrator_adds_a_regime_from_today_and_it_is_in_force(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    page = admin_olimpia_client.get(url(olimpia)).content.decode()
    assert (
        "Transporte coletivo escolar particular — Olímpia/SP" in page
        and "desde a criação do município" in page
    )
    today = timezone.localdate()
    response = admin_olimpia_client.post(
        url(olimpia),
        {
            "acao": "acrescentar",
            "novo-regime": "patrocinio_mg_aplicativo",
            "novo-starts_on": today.isoformat(),
        },
    )
    assert response.status_code == 302
    olimpia.refresh_from_db()
    assert olimpia.regimes == ["olimpia_sp_escolar", "patrocinio_mg_aplicativo"]
    event = AuditEvent.objects.get(action="municipality.regime_add")
    assert (event.after or {})["regime"] == "patrocinio_mg_aplicativo"
    page = admin_olimpia_client.get(url(olimpia)).content.decode()
    assert f"{today:%d/%m/%Y}" in page and "em vigor" in page


def test_a_regime_from_a_later_date_is_scheduled_and_the_sweep_brings_it_in(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    later = timezone.localdate() + dt.timedelta(days=10)
    admin_olimpia_client.post(
        url(olimpia),
        {"acao": "acrescentar", "novo-regime": "votuporanga_sp_escolar", "novo-starts_on": later.isoformat()},
    )
    olimpia.refresh_from_db()
    assert olimpia.regimes == ["olimpia_sp_escolar"]
    assert "agendado" in admin_olimpia_client.get(url(olimpia)).content.decode()
    assert services.municipality_regimes_sync(later - dt.timedelta(days=1)) == 0
    assert services.municipality_regimes_sync(later) == 1
    olimpia.refresh_from_db()
    assert olimpia.regimes == ["olimpia_sp_escolar", "votuporanga_sp_escolar"]
    assert AuditEvent.objects.filter(action="municipality.regimes_in_force").count() == 1


def test_ending_a_regime_from_a_date_keeps_it_until_the_day_before(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    ends = timezone.localdate() + dt.timedelta(days=30)
    response = admin_olimpia_client.post(
        url(olimpia),
        {"acao": "encerrar", "fim-regime": "olimpia_sp_escolar", "fim-ends_on": ends.isoformat()},
    )
    assert response.status_code == 302
    olimpia.refresh_from_db()
    assert olimpia.regimes == ["olimpia_sp_escolar"]
    assert olimpia.regime_terms["olimpia_sp_escolar"]["until"] == ends.isoformat()
    assert AuditEvent.objects.filter(action="municipality.regime_end").exists()
    services.municipality_regimes_sync(ends - dt.timedelta(days=1))
    olimpia.refresh_from_db()
    assert olimpia.regimes == ["olimpia_sp_escolar"]
    services.municipality_regimes_sync(ends)
    olimpia.refresh_from_db()
    assert olimpia.regimes == []


def test_ending_a_regime_in_the_past_is_refused_in_portuguese(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    response = admin_olimpia_client.post(
        url(olimpia),
        {"acao": "encerrar", "fim-regime": "olimpia_sp_escolar", "fim-ends_on": "2000-01-01"},
    )
    assert response.status_code == 400
    assert "Deixa de valer a partir de: não pode ser anterior a" in response.content.decode()
    olimpia.refresh_from_db()
    assert olimpia.regime_terms == {}


def test_only_the_administrator_changes_the_regimes(
    analyst_olimpia_client: Client, outsider_client: Client, olimpia: Municipality
) -> None:
    for other in (analyst_olimpia_client, outsider_client):
        assert other.get(url(olimpia)).status_code == 404
        data = {
            "acao": "acrescentar",
            "novo-regime": "patrocinio_mg_aplicativo",
            "novo-starts_on": "2026-01-01",
        }
        assert other.post(url(olimpia), data).status_code == 404
    olimpia.refresh_from_db()
    assert olimpia.regimes == ["olimpia_sp_escolar"]


def test_creating_an_existing_municipality_again_names_it_not_a_field(olimpia: Municipality) -> None:
    installer = services.deployment_admin_create_first(
        username="instalador", email="ti@example.gov.br", password=GOOD_PASSWORD, full_name="Equipe de TI"
    ).user
    client = Client()
    client.force_login(installer)
    response = client.post(
        reverse("tenancy:municipality_new"),
        {"ibge_code": "3533908", "name": "Olímpia", "uf": "SP", "regimes": ["patrocinio_mg_aplicativo"]},
    )
    text = response.content.decode()
    assert "O município Olímpia-SP (código IBGE 3533908) já está cadastrado" in text
    assert "Regimes legais" in text and "Identificador na URL" not in text
