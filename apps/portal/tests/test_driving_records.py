"""The portal's driving-record page: the applicant declares, the prefeitura's confirmation shows, scope holds."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.portal.models import PortalAccount
from apps.portal.tests.conftest import portal_client
from apps.registry.models import TrafficInfraction

pytestmark = pytest.mark.django_db
URL = reverse("portal:driving-records")


def test_the_holder_declares_an_infraction_that_waits_for_the_prefeitura(
    alice_client: Client, alice_case: Case
) -> None:
    page = alice_client.get(URL).content.decode()
    # The lawful case was confirmed from its certidão; a new declaration does not change that by itself.
    assert "Conferido pela prefeitura" in page and "Nenhuma" in page
    response = alice_client.post(
        URL,
        {"driver": alice_case.driver.pk, "date": "2026-01-15", "severity": "gravissima", "description": ""},
    )
    assert response.status_code == 302
    infraction = TrafficInfraction.objects.get(person=alice_case.person)
    assert infraction.severity == "gravissima" and infraction.declared_by is not None
    assert AuditEvent.objects.filter(action="registry.traffic_infraction.declare").count() == 1
    page = alice_client.get(URL).content.decode()
    assert "Gravíssima em 15/01/2026" in page


def test_another_operators_driver_cannot_be_named(
    alice_client: Client, bob_licensed: tuple[Case, Permit]
) -> None:
    other_driver = bob_licensed[0].driver
    response = alice_client.post(URL, {"driver": other_driver.pk, "date": "2026-01-15", "severity": "leve"})
    assert response.status_code == 200 and "driver" in response.context["form"].errors
    assert not TrafficInfraction.objects.exists()


def test_a_driver_account_sees_only_its_own_record(marcos: PortalAccount, alice_case: Case) -> None:
    page = portal_client(marcos).get(URL).content.decode()
    assert marcos.driver is not None and marcos.driver.person.name in page
    assert alice_case.person.name not in page
