"""The secretariat's contact for the public lookup: set by the municipality's administrator (audited), shown
next to the answer; anybody else gets 404 and changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.audit.models import AuditEvent
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
URL = "/municipios/3533908/contato-publico/"
CONTACT = "Secretaria Municipal de Educação — transporte escolar\nTelefone (17) 3279-0000"


def test_the_administrator_publishes_the_contact_and_the_lookup_shows_it(
    admin_olimpia_client: Client, client: Client, olimpia: Municipality
) -> None:
    assert admin_olimpia_client.get(URL).status_code == 200
    assert admin_olimpia_client.post(URL, {"contact": CONTACT}).status_code == 302
    olimpia.refresh_from_db()
    assert olimpia.public_contact == CONTACT
    event = AuditEvent.objects.get(action="municipality.public_contact")
    assert event.after == {"public_contact": CONTACT}
    page = client.get("/consulta/", {"municipio": "3533908", "q": "0001/2026"}).content.decode()
    assert 'data-testid="contacts"' in page and "Telefone (17) 3279-0000" in page


def test_nobody_else_sets_it(
    analyst_olimpia_client: Client, outsider_client: Client, olimpia: Municipality
) -> None:
    for other in (analyst_olimpia_client, outsider_client):
        assert other.get(URL).status_code == 404
        assert other.post(URL, {"contact": "Ligue para mim"}).status_code == 404
    olimpia.refresh_from_db()
    assert olimpia.public_contact == ""
