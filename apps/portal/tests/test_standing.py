"""The portal shows each permit's legal status today with the reason and the article: the holder sees the
permit's, a driver sees it for themself (their own CNH counts)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from apps.licensing.casebook import Case
from apps.licensing.models import Permit
from apps.portal.models import PortalAccount
from apps.portal.tests.conftest import portal_client
from apps.registry.services import driver_update

pytestmark = pytest.mark.django_db


def test_the_holder_sees_an_expired_cnh_make_the_permit_irregular(
    alice_client: Client, alice_case: Case, alice_permit: Permit
) -> None:
    today = timezone.localdate()
    assert 'data-status="regular"' in alice_client.get("/portal/").content.decode()
    driver_update(actor=None, driver=alice_case.driver, as_of=today, cnh_expiry=today - dt.timedelta(days=1))
    for page in ("/portal/", "/portal/veiculos/"):
        html = alice_client.get(page).content.decode()
        assert 'data-status="irregular"' in html, page
        assert "Carteira Nacional de Habilitação (CNH) do autorizatário: vencido desde" in html, page
        assert "Fundamento:" in html and "art. 9º, III" in html, page


def test_a_driver_sees_the_permit_irregular_for_them_while_the_holder_sees_it_regular(
    marcos: PortalAccount, votuporanga_licensed: tuple[Case, Permit]
) -> None:
    case, _permit = votuporanga_licensed
    today = timezone.localdate()
    driver_update(actor=None, driver=case.driver, as_of=today, cnh_expiry=today - dt.timedelta(days=1))
    html = portal_client(marcos).get("/portal/").content.decode()
    assert 'data-status="irregular"' in html and "do condutor empregado: vencido desde" in html
