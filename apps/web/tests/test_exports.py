"""The shared export machinery: Brazilian CSV, typed XLSX, formula injection, streaming."""

from __future__ import annotations

import csv
import datetime as dt
import io
import tracemalloc
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from openpyxl import load_workbook

from apps.registry.models import Vehicle
from apps.tenancy.models import Municipality
from apps.web import exports, xlsxstream
from apps.web.exports import Column, ExportSpec, attr, csv_lines, csv_text, xlsx_chunks

SPEC = ExportSpec(
    name="teste",
    title="Teste",
    columns=(
        Column("Nome", attr("name")),
        Column("Valor (R$)", attr("amount")),
        Column("Vencimento", attr("due_on")),
        Column("Registrado em", attr("at")),
        Column("Pago", attr("paid")),
        Column("Cidade", attr("place.name")),
    ),
)
ROW = SimpleNamespace(
    name='=HYPERLINK("http://x","Clique")',
    amount=Decimal("1234.56"),
    due_on=dt.date(2026, 3, 2),
    at=dt.datetime(2026, 3, 2, 17, 5, tzinfo=dt.UTC),
    paid=False,
    place=None,
)


def _read_csv(lines: Any) -> tuple[str, list[list[str]]]:
    body = "".join(lines)
    return body, list(csv.reader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))


def test_csv_is_utf8_with_bom_semicolons_decimal_comma_and_brazilian_dates() -> None:
    body, rows = _read_csv(csv_lines(SPEC, [ROW]))
    assert body.startswith("\ufeffNome;Valor (R$);Vencimento;")
    assert body.endswith("\r\n")
    # 17:05 UTC is 14:05 in São Paulo; a missing link is an empty cell, never "None".
    assert rows[1] == [
        '\'=HYPERLINK("http://x","Clique")',
        "1234,56",
        "02/03/2026",
        "02/03/2026 14:05",
        "Não",
        "",
    ]


@pytest.mark.parametrize("text", ["=1+1", "+55 17", "-2", "@SUM(A1)", "\tx", "\rx", "＝1"])
def test_every_formula_start_is_neutralized_in_csv(text: str) -> None:
    assert csv_text(text) == "'" + text


def test_numbers_and_plain_text_are_left_as_they_are() -> None:
    assert csv_text(-5) == "-5"
    assert csv_text(Decimal("-10.50")) == "-10,50"
    assert csv_text("Olímpia; SP") == "Olímpia; SP"
    assert csv_text(True) == "Sim"


def _workbook(spec: ExportSpec, rows: list[Any]) -> Any:
    return load_workbook(io.BytesIO(b"".join(xlsx_chunks(spec, rows))))


def test_xlsx_cells_are_typed_and_shown_the_brazilian_way() -> None:
    sheet = _workbook(SPEC, [ROW]).worksheets[0]
    assert [cell.value for cell in sheet[1]] == list(SPEC.headers)
    name, amount, due, at, paid, place = sheet[2]
    assert name.value == '\'=HYPERLINK("http://x","Clique")' and name.data_type == "s"
    assert amount.value == pytest.approx(1234.56) and amount.number_format == "#,##0.00"
    assert due.value == dt.datetime(2026, 3, 2) and due.number_format == "DD/MM/YYYY"
    assert at.value == dt.datetime(2026, 3, 2, 14, 5) and at.number_format == "DD/MM/YYYY HH:MM"
    assert paid.value == "Não" and place.value is None
    assert sheet.title == "Teste" and sheet["A1"].font.b and not sheet["A2"].font.b


def test_xlsx_drops_characters_a_spreadsheet_cannot_hold() -> None:
    row = SimpleNamespace(**{**vars(ROW), "name": "Jo\x00ão\x1b"})
    assert _workbook(SPEC, [row]).worksheets[0]["A2"].value == "João"


def test_xlsx_is_sent_while_the_rows_are_still_being_read() -> None:
    """The file's first bytes leave before the first row is read, and the rows are then read one batch between
    two chunks: a 300,000-row list is never assembled before the download starts."""
    read = 0

    def rows() -> Any:
        nonlocal read
        for n in range(3 * xlsxstream.ROWS_PER_CHUNK):
            read += 1
            yield SimpleNamespace(**{**vars(ROW), "name": f"Linha {n}"})

    chunks = xlsx_chunks(SPEC, rows())
    sizes, read_when = [], []
    for chunk in chunks:
        sizes.append(len(chunk))
        read_when.append(read)
    assert read_when[0] == 0 and sizes[0] > 0  # the workbook's parts, before any row
    steps = [after - before for before, after in zip(read_when, read_when[1:], strict=False)]
    assert max(steps) <= xlsxstream.ROWS_PER_CHUNK and len(sizes) == 3 + 2
    sheet = load_workbook(io.BytesIO(b"".join(xlsx_chunks(SPEC, rows())))).worksheets[0]
    assert sheet.max_row == 3 * xlsxstream.ROWS_PER_CHUNK + 1 and sheet["A1501"].value == "Linha 1499"


@pytest.mark.django_db
def test_xlsx_streams_the_queryset_with_bounded_memory(
    olimpia: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    """6,000 vehicles: the peak while producing the whole file stays far below the file's own rows in memory."""
    monkeypatch.setattr(exports, "CHUNK_SIZE", 200)
    Vehicle.objects.bulk_create(_vehicles(olimpia, 6000))
    spec = ExportSpec(
        "veiculos", "Veículos", (Column("Placa", attr("plate")), Column("Modelo", attr("model")))
    )
    rows = Vehicle.objects.filter(municipality=olimpia).order_by("pk")
    tracemalloc.start()
    size = sum(len(chunk) for chunk in xlsx_chunks(spec, rows))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert size > 20_000 and peak < 3_000_000
    assert rows._result_cache is None


@pytest.mark.django_db
def test_csv_streams_the_queryset_in_chunks_without_caching_it(
    olimpia: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    """6,000 vehicles read with iterator() in chunks of 200: streaming holds well under 3 MB (about 0.7 MB
    here); iterating the queryset itself keeps every instance alive (about 10 MB here)."""
    monkeypatch.setattr(exports, "CHUNK_SIZE", 200)
    Vehicle.objects.bulk_create(_vehicles(olimpia, 6000))
    spec = ExportSpec(
        "veiculos", "Veículos", (Column("Placa", attr("plate")), Column("Modelo", attr("model")))
    )
    rows = Vehicle.objects.filter(municipality=olimpia).order_by("pk")
    lines = csv_lines(spec, rows)
    tracemalloc.start()
    size = 0
    for chunk in lines:
        size += len(chunk.encode())
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert size > 6000 * 50
    assert peak < 3_000_000
    assert rows._result_cache is None  # never evaluated as a list


def _vehicles(municipality: Municipality, count: int) -> list[Vehicle]:
    return [
        Vehicle(
            municipality=municipality,
            plate=f"AAA{n:04d}",
            renavam=f"{n:011d}",
            make="Volkswagen",
            model="Kombi Escolar com nome comprido para o teste",
            manufacture_year=2020,
            model_year=2020,
            seats=12,
            doors=4,
            registration_municipality_ibge="3533908",
            registration_municipality_name="Olímpia",
            category="aluguel",
            owner_name="Fulano",
            owner_document="52998224725",
            ownership_kind="own",
        )
        for n in range(count)
    ]
