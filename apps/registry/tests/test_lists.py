"""The vehicle, driver and document lists: search, filters, order, pagination, the gate, and their exports."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.audit.services import PERSONAL_DATA_LIST_EXPORT
from apps.registry.models import Driver, Operator, Vehicle
from apps.registry.services import document_upload, operator_create, person_create, vehicle_create
from apps.registry.tests.conftest import AS_OF, pdf_upload, vehicle_fields
from apps.registry.tests.test_views import _cpf, _renavam
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
OLIMPIA = "3533908"


def _url(name: str, ibge: str = OLIMPIA) -> str:
    return reverse(f"registry:{name}", args=[ibge])


def _csv(response: Any) -> list[list[str]]:
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:]), delimiter=";"))


def _fleet(municipality: Municipality, count: int, start: int = 0) -> None:
    """`count` PF operators with one vehicle and one driver each."""
    for number in range(start, start + count):
        person = person_create(
            actor=None, municipality=municipality, cpf=_cpf(number), name=f"Pessoa {number}", as_of=AS_OF
        )
        operator = operator_create(
            actor=None, municipality=municipality, regime_id="olimpia_sp_escolar", person=person, as_of=AS_OF
        )
        vehicle = vehicle_create(
            actor=None,
            municipality=municipality,
            operator=operator,
            as_of=AS_OF,
            **vehicle_fields(
                plate=f"ABC{1000 + number}",
                renavam=_renavam(number),
                manufacture_year=2010 + number % 10,
                model_year=2010 + number % 10,
            ),
        )
        Driver.objects.create(
            municipality=municipality,
            operator=operator,
            person=person,
            vehicle=vehicle,
            role="principal",
            cnh_number=f"{number + 1:011d}",
            cnh_category="D",
            cnh_expiry=AS_OF + dt.timedelta(days=number),
        )


@pytest.mark.parametrize("name", ["vehicle_list", "driver_list", "document_list"])
def test_outsider_and_other_municipality_get_404(
    name: str, outsider_client: Client, agent_votuporanga_client: Client, olimpia: Municipality
) -> None:
    assert outsider_client.get(_url(name)).status_code == 404
    assert agent_votuporanga_client.get(_url(name)).status_code == 404
    assert agent_votuporanga_client.get(_url(name), {"formato": "csv"}).status_code == 404


def test_vehicle_list_searches_by_plate_in_either_form_and_filters_by_age(
    analyst_olimpia_client: Client, kombi: Vehicle
) -> None:
    page = analyst_olimpia_client.get(_url("vehicle_list"), {"q": "abc-1d23"})
    assert "ABC1D23" in page.content.decode() and "1 veículo(s)" in page.content.decode()
    page = analyst_olimpia_client.get(_url("vehicle_list"), {"made_until": "2019"})
    assert "Nenhum veículo encontrado." in page.content.decode()
    page = analyst_olimpia_client.get(_url("vehicle_list"), {"q": "Joao"})  # holder name needs the accent
    assert "Nenhum veículo encontrado." in page.content.decode()
    page = analyst_olimpia_client.get(_url("vehicle_list"), {"q": "João"})
    assert "Kombi" in page.content.decode()


def test_driver_list_orders_by_cnh_expiry_and_filters(
    analyst_olimpia_client: Client, olimpia: Municipality
) -> None:
    _fleet(olimpia, 3)
    page = analyst_olimpia_client.get(_url("driver_list"), {"ordem": "cnh"}).content.decode()
    assert page.index("Pessoa 0") < page.index("Pessoa 1") < page.index("Pessoa 2")
    until = (AS_OF + dt.timedelta(days=1)).isoformat()
    page = analyst_olimpia_client.get(_url("driver_list"), {"cnh_until": until}).content.decode()
    assert "Pessoa 1" in page and "Pessoa 2" not in page
    page = analyst_olimpia_client.get(_url("driver_list"), {"q": _cpf(2)}).content.decode()
    assert "1 condutor(es)" in page and "Pessoa 2" in page


def test_document_list_filters_by_the_laws_kinds(
    analyst_olimpia_client: Client, analyst_olimpia: User, kombi: Vehicle, olimpia: Municipality
) -> None:
    document_upload(
        actor=analyst_olimpia,
        owner=kombi,
        kind="crlv",
        upload=pdf_upload(),
        issue_date=AS_OF,
        expiry_date=dt.date(2026, 12, 31),
        as_of=AS_OF,
    )
    page = analyst_olimpia_client.get(_url("document_list"))
    content = page.content.decode()
    assert "1 documento(s)" in content and "ABC1D23" in content
    kinds = page.context["form"].fields["kind"].choices
    assert ("crlv", kinds[[key for key, _ in kinds].index("crlv")][1]) in kinds and len(kinds) > 3
    page = analyst_olimpia_client.get(_url("document_list"), {"status": "expired"})
    assert "Nenhum documento encontrado." in page.content.decode()


def test_lists_paginate(analyst_olimpia_client: Client, olimpia: Municipality) -> None:
    _fleet(olimpia, 27)
    first = analyst_olimpia_client.get(_url("vehicle_list")).content.decode()
    second = analyst_olimpia_client.get(_url("vehicle_list"), {"pagina": 2}).content.decode()
    assert first.count("data-row-id") == 25 and second.count("data-row-id") == 2
    assert "Página 2 de 2" in second


@pytest.mark.parametrize("name", ["vehicle_list", "driver_list", "document_list"])
def test_lists_and_exports_use_a_constant_number_of_queries(
    name: str,
    analyst_olimpia_client: Client,
    analyst_olimpia: User,
    olimpia: Municipality,
) -> None:
    """The same number of queries with 5 rows as with 50, for the page and for its CSV and XLSX."""
    _fleet(olimpia, 5)
    _documents(analyst_olimpia, olimpia)
    url = _url(name)
    analyst_olimpia_client.get(url)  # warm the session
    few = {fmt: _queries(analyst_olimpia_client, url, fmt) for fmt in ("", "csv", "xlsx")}
    _fleet(olimpia, 45, start=5)
    _documents(analyst_olimpia, olimpia)
    many = {fmt: _queries(analyst_olimpia_client, url, fmt) for fmt in ("", "csv", "xlsx")}
    assert few == many


def _documents(actor: User, municipality: Municipality) -> None:
    for vehicle in Vehicle.objects.filter(municipality=municipality, documents__isnull=True):
        document_upload(
            actor=actor,
            owner=vehicle,
            kind="crlv",
            upload=pdf_upload(),
            issue_date=AS_OF,
            expiry_date=dt.date(2026, 12, 31),
            as_of=AS_OF,
        )


def _queries(client: Client, url: str, fmt: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response: Any = client.get(url, {"formato": fmt} if fmt else {})
        if fmt:
            b"".join(response.streaming_content)
    assert response.status_code == 200
    return len(queries.captured_queries)


def test_driver_export_is_brazilian_filtered_and_audited(
    analyst_olimpia_client: Client, olimpia: Municipality
) -> None:
    _fleet(olimpia, 3)
    response = analyst_olimpia_client.get(_url("driver_list"), {"q": "Pessoa 1", "formato": "csv"})
    assert response["Content-Disposition"].startswith('attachment; filename="condutores-3533908-')
    rows = _csv(response)
    assert rows[0][:3] == ["Nome", "CPF", "Função"]
    assert [row[0] for row in rows[1:]] == ["Pessoa 1"]
    assert rows[1][rows[0].index("Validade da CNH")] == (AS_OF + dt.timedelta(days=1)).strftime("%d/%m/%Y")
    assert rows[1][rows[0].index("Ativo")] == "Sim"
    event = AuditEvent.objects.get(action=PERSONAL_DATA_LIST_EXPORT)
    assert event.object_type == "export.condutores"
    after: Any = event.after
    assert after["filters"] == {"q": "Pessoa 1"} and "CPF" in after["fields"]


def test_vehicle_export_as_xlsx_keeps_numbers_and_neutralizes_formulas(
    analyst_olimpia_client: Client, joao_operator: Operator, olimpia: Municipality
) -> None:
    vehicle_create(
        actor=None,
        municipality=olimpia,
        operator=joao_operator,
        as_of=AS_OF,
        **vehicle_fields(model='=HYPERLINK("http://x","y")'),
    )
    response: Any = analyst_olimpia_client.get(_url("vehicle_list"), {"formato": "xlsx"})
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(b"".join(response.streaming_content))).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    row = [cell.value for cell in sheet[2]]
    assert row[header.index("Modelo")] == '\'=HYPERLINK("http://x","y")'
    assert sheet.cell(2, header.index("Modelo") + 1).data_type == "s"
    assert row[header.index("Ano de fabricação")] == 2020


def test_operator_list_exports_its_filtered_rows(
    analyst_olimpia_client: Client, olimpia: Municipality
) -> None:
    _fleet(olimpia, 2)
    rows = _csv(analyst_olimpia_client.get(_url("operator_list"), {"q": "Pessoa 0", "formato": "csv"}))
    assert rows[0][0] == "Titular" and [row[0] for row in rows[1:]] == ["Pessoa 0"]
    assert rows[1][rows[0].index("Veículos")] == "1"


def test_the_page_offers_the_export_with_the_filters_on_screen(
    analyst_olimpia_client: Client, kombi: Vehicle
) -> None:
    content = analyst_olimpia_client.get(_url("vehicle_list"), {"q": "Kombi", "pagina": "1"}).content.decode()
    assert "?q=Kombi&amp;formato=csv" in content and "?q=Kombi&amp;formato=xlsx" in content


def _row_ids(page: str) -> list[str]:
    return re.findall(r'data-row-id="(\d+)"', page)


def _two_documents(analyst: User, kombi: Vehicle) -> None:
    for issued in (AS_OF - dt.timedelta(days=10), AS_OF):
        document_upload(
            actor=analyst,
            owner=kombi,
            kind="crlv",
            upload=pdf_upload(),
            issue_date=issued,
            expiry_date=dt.date(2026, 12, 31),
            as_of=AS_OF,
        )


@pytest.mark.parametrize(
    ("name", "key"), [("vehicle_list", "ano"), ("driver_list", "nome"), ("document_list", "emissao")]
)
def test_registry_lists_sort_by_a_column_header_both_ways(
    name: str,
    key: str,
    analyst_olimpia_client: Client,
    analyst_olimpia: User,
    kombi: Vehicle,
    olimpia: Municipality,
) -> None:
    _fleet(olimpia, 2)
    _two_documents(analyst_olimpia, kombi)
    ascending = analyst_olimpia_client.get(_url(name), {"ordering": key}).content.decode()
    descending = analyst_olimpia_client.get(_url(name), {"ordering": f"-{key}"}).content.decode()
    assert len(_row_ids(ascending)) >= 2 and _row_ids(descending) == _row_ids(ascending)[::-1]
    assert (
        f'<th scope="col" aria-sort="ascending"><a class="outorga-sort" href="?ordering=-{key}"' in ascending
    )
    assert 'aria-sort="descending"' in descending
    # Without a clicked header the "Ordenar por" select orders the list and no column claims the order.
    plain = analyst_olimpia_client.get(_url(name)).content.decode()
    assert 'aria-sort="none"' in plain and 'aria-sort="ascending"' not in plain
