"""A plate is unique nationally: the public page looks it up in every municipality of the deployment, so a van
licensed in one town is never shown «Não embarque» because another town was chosen (or pre-selected). A permit
number is numbered per town, so it still needs its town."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from apps.licensing.models import Permit
from apps.public.lookups import MUNICIPALITY_REQUIRED

pytestmark = pytest.mark.django_db


def test_the_form_preselects_no_municipality(client: Client, olimpia_permit: Permit) -> None:
    page = client.get("/consulta/").content.decode()
    select = re.search(r'<select name="municipio".*?</select>', page, re.S)
    assert select is not None and 'value="3533908">' in select.group(0)
    assert not re.search(r'value="\d{7}" selected', select.group(0))
    assert page.index('name="q"') < page.index('name="municipio"')


@pytest.mark.parametrize("chosen", ["", "3533908"])
def test_a_plate_is_found_in_its_own_town_whatever_town_is_chosen(
    client: Client, olimpia_permit: Permit, patrocinio_permit: Permit, chosen: str
) -> None:
    response = client.get("/consulta/", {"municipio": chosen, "q": patrocinio_permit.vehicle.plate})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-status="regular"' in page and "Não embarque" not in page
    assert str(patrocinio_permit.municipality) in page.split('data-testid="municipality"')[1][:80]
    assert f"municipio={patrocinio_permit.municipality.ibge_code}" in page  # the complaint goes to its town


def test_an_unknown_plate_names_every_town_searched(
    client: Client, olimpia_permit: Permit, patrocinio_permit: Permit
) -> None:
    page = client.get("/consulta/", {"q": "ZZZ9Z99"}).content.decode()
    assert 'data-status="unknown"' in page
    assert str(olimpia_permit.municipality) in page and str(patrocinio_permit.municipality) in page


def test_a_permit_number_needs_its_town(client: Client, olimpia_permit: Permit) -> None:
    refused = client.get("/consulta/", {"q": olimpia_permit.number})
    assert refused.status_code == 400 and MUNICIPALITY_REQUIRED in refused.content.decode()
    found = client.get("/consulta/", {"municipio": "3533908", "q": olimpia_permit.number})
    assert 'data-status="regular"' in found.content.decode()
