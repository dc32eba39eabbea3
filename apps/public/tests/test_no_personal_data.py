"""No public response carries personal data: checked on the demo data (people with CPF, address, phone,
e-mail and CNH; companies with CNPJ; vehicles with RENAVAM and owner document), over every public route —
page, QR, JSON, complaint pages and the open-data files."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client, TestCase

from apps.licensing.models import Permit
from apps.licensing.urls_public import verify_path
from apps.registry.identifiers import format_cnpj, format_cpf, mask_cpf
from apps.registry.models import Company, Driver, Person, Vehicle
from apps.tenancy.demo import seed_demo

pytestmark = pytest.mark.django_db


def _person_secrets() -> Iterator[str]:
    for person in Person.objects.all():
        yield from (person.cpf, format_cpf(person.cpf), mask_cpf(person.cpf), person.phone, person.email)
        yield from (person.street, person.postal_code)


def _other_secrets() -> Iterator[str]:
    for company in Company.objects.all():
        yield from (company.cnpj, format_cnpj(company.cnpj), format_cnpj(company.cnpj)[:10], company.email)
        yield from (company.street, company.postal_code)
    for vehicle in Vehicle.objects.all():
        yield from (vehicle.renavam, vehicle.owner_document)
    yield from Driver.objects.values_list("cnh_number", flat=True)


def personal_values() -> set[str]:
    return {value for value in (*_person_secrets(), *_other_secrets()) if value and len(value) >= 6}


def public_responses(client: Client) -> Iterator[tuple[str, bytes]]:
    with TestCase.captureOnCommitCallbacks(execute=True):  # the files reach the store after the commit
        call_command("export_open_data", stdout=io.StringIO())
    urls = ["/consulta/", "/consulta/denunciar/", "/dados-abertos/", "/verificar/" + "B" * 32 + "/"]
    for permit in Permit.objects.select_related("vehicle", "municipality"):
        ibge, plate = permit.municipality.ibge_code, permit.vehicle.plate
        urls += [
            f"/consulta/?municipio={ibge}&q={plate}",
            f"/consulta/?municipio={ibge}&q={permit.number}",
            verify_path(permit.qr_token),
            f"/api/publica/v1/verificacao/?codigo={permit.qr_token}",
            f"/api/publica/v1/verificacao/?municipio={ibge}&placa={plate}",
            f"/api/publica/v1/verificacao/?municipio={ibge}&alvara={permit.number}",
            f"/consulta/denunciar/?municipio={ibge}&placa={plate}",
            f"/dados-abertos/{ibge}/alvaras-em-vigor.csv",
            f"/dados-abertos/{ibge}/alvaras-em-vigor.json",
        ]
    for url in urls:
        response = client.get(url)
        yield url, b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]


def test_no_public_response_contains_personal_data(client: Client, settings: Any) -> None:
    seed_demo()
    secrets = personal_values()
    assert len(secrets) > 50  # the demo really holds CPFs, phones, addresses, CNH numbers, RENAVAMs
    checked = 0
    for url, body in public_responses(client):
        text = body.decode()
        leaked = sorted(secret for secret in secrets if secret in text)
        assert not leaked, f"{url} shows {leaked}"
        checked += 1
    statuses = {p.state for p in Permit.objects.all()}
    assert {"active", "suspended", "expired"} <= statuses
    assert checked >= 4 + 9 * Permit.objects.count()
