"""Staff lists as spreadsheets: one streamed CSV/XLSX export shared by every list.

Each app declares, next to its list view, what a row of its list exports (`ExportSpec`: a Portuguese header and
a function of the row per column); this module does the rest once: the Brazilian convention (`;`, decimal
comma, dd/mm/aaaa, "Sim"/"Não", UTF-8 with BOM so Excel opens the accents right), formula injection
neutralized (apps.web.csvsafe), rows read with `iterator(chunk_size=…)` so 300,000 rows never sit in memory,
and an audit event when the columns carry personal data (LGPD art. 37: operations on personal data are
recorded).

A list view adds one line before it paginates:

    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=OPERATORS, rows=rows, municipality=municipality, fmt=fmt)
"""

from __future__ import annotations

import csv
import datetime as dt
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.http import FileResponse, HttpRequest, StreamingHttpResponse
from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from apps.audit.services import audit_list_export
from apps.tenancy.models import Municipality
from apps.web.csvsafe import safe_cell

FORMAT_PARAM = "formato"
CSV, XLSX = "csv", "xlsx"
FORMATS = (CSV, XLSX)
CHUNK_SIZE = 2000
# Lines are sent in batches: one write per row would make 300,000 tiny chunks on the socket.
LINES_PER_CHUNK = 500
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BOM = "\ufeff"
DATE_FORMAT = "DD/MM/YYYY"
DATETIME_FORMAT = "DD/MM/YYYY HH:MM"
MONEY_FORMAT = "#,##0.00"


@dataclass(frozen=True)
class Column:
    """One column: its header as the user reads it and how a row gives its value.

    ``personal`` marks data of a person (CPF, CNH, address, phone, e-mail): exporting it is audited.
    """

    header: str
    value: Callable[[Any], Any]
    personal: bool = False


@dataclass(frozen=True)
class ExportSpec:
    """What a list exports: the file name stem, the sheet title and the columns, in order."""

    name: str
    title: str
    columns: tuple[Column, ...]
    select_related: tuple[str, ...] = field(default=())

    @property
    def headers(self) -> list[str]:
        return [column.header for column in self.columns]

    @property
    def personal_headers(self) -> list[str]:
        return [column.header for column in self.columns if column.personal]

    def values(self, row: Any) -> list[Any]:
        return [column.value(row) for column in self.columns]


def attr(path: str) -> Callable[[Any], Any]:
    """`attr("operator.person.name")`: follows the dotted path, None as soon as a link is empty."""
    names = path.split(".")

    def read(row: Any) -> Any:
        value = row
        for name in names:
            value = getattr(value, name, None)
            if value is None:
                return None
        return value() if callable(value) else value

    return read


def requested_format(request: HttpRequest) -> str | None:
    """The export format asked for (`?formato=csv|xlsx`), or None for the page itself."""
    fmt = request.GET.get(FORMAT_PARAM, "")
    return fmt if fmt in FORMATS else None


def export_response(
    request: HttpRequest,
    *,
    spec: ExportSpec,
    rows: Iterable[Any],
    municipality: Municipality | None,
    fmt: str,
) -> StreamingHttpResponse | FileResponse:
    """The filtered rows of a list as a download; audited first when the columns hold personal data."""
    if spec.personal_headers:
        audit_list_export(
            actor=request.user,
            municipality=municipality,
            list_name=spec.name,
            fields=spec.personal_headers,
            filters=_filters(request),
            fmt=fmt,
            request_id=getattr(request, "request_id", ""),
        )
    if spec.select_related and isinstance(rows, QuerySet):
        rows = rows.select_related(*spec.select_related)
    name = _file_name(spec, municipality, fmt)
    if fmt == CSV:
        response = StreamingHttpResponse(csv_lines(spec, rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    return FileResponse(xlsx_file(spec, rows), as_attachment=True, filename=name, content_type=XLSX_TYPE)


def _filters(request: HttpRequest) -> dict[str, str]:
    return {
        key: str(value) for key, value in request.GET.items() if key not in (FORMAT_PARAM, "pagina") and value
    }


def _file_name(spec: ExportSpec, municipality: Municipality | None, fmt: str) -> str:
    place = f"-{municipality.ibge_code}" if municipality is not None else ""
    return f"{spec.name}{place}-{timezone.localdate():%Y%m%d}.{fmt}"


def _stream(rows: Iterable[Any]) -> Iterator[Any]:
    """Rows in chunks from the database cursor, never the whole result at once."""
    if isinstance(rows, QuerySet):
        return rows.iterator(chunk_size=CHUNK_SIZE)
    return iter(rows)


# --- CSV --------------------------------------------------------------------------------------------------


class _Line:
    """The csv writer writes into this and gets the line back: no buffer grows with the file."""

    def write(self, text: str) -> str:
        return text


def csv_text(value: Any) -> str:
    """A cell in the Brazilian convention: 1234,56 · 02/03/2026 · 02/03/2026 14:05 · Sim/Não."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, Decimal):
        return format(value, "f").replace(".", ",")
    if isinstance(value, float):
        return repr(value).replace(".", ",")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dt.datetime):
        return _local(value).strftime("%d/%m/%Y %H:%M")
    if isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    return str(safe_cell(str(value)))


def _local(value: dt.datetime) -> dt.datetime:
    """Timestamps are stored in UTC and read in the municipality's clock (America/Sao_Paulo)."""
    return timezone.localtime(value) if timezone.is_aware(value) else value


def csv_lines(spec: ExportSpec, rows: Iterable[Any]) -> Iterator[str]:
    writer = csv.writer(_Line(), delimiter=";", lineterminator="\r\n")
    yield BOM + writer.writerow(spec.headers)
    batch: list[str] = []
    for row in _stream(rows):
        batch.append(writer.writerow([csv_text(value) for value in spec.values(row)]))
        if len(batch) >= LINES_PER_CHUNK:
            yield "".join(batch)
            batch = []
    if batch:
        yield "".join(batch)


# --- XLSX -------------------------------------------------------------------------------------------------


def xlsx_cell(sheet: Any, value: Any) -> Any:
    """A typed cell: dates and amounts stay numbers the spreadsheet can sum and sort, shown the Brazilian way."""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, str):
        return safe_cell(ILLEGAL_CHARACTERS_RE.sub("", value))
    if isinstance(value, dt.datetime):
        return _formatted(sheet, _local(value).replace(tzinfo=None), DATETIME_FORMAT)
    if isinstance(value, dt.date):
        return _formatted(sheet, value, DATE_FORMAT)
    if isinstance(value, Decimal):
        return _formatted(sheet, value, MONEY_FORMAT if value.as_tuple().exponent == -2 else "General")
    if value is None or isinstance(value, int | float):
        return value
    return safe_cell(ILLEGAL_CHARACTERS_RE.sub("", str(value)))


def _formatted(sheet: Any, value: Any, number_format: str) -> Cell:
    cell = WriteOnlyCell(sheet, value=value)
    cell.number_format = number_format
    return cell


def xlsx_file(spec: ExportSpec, rows: Iterable[Any]) -> Any:
    """The workbook in a temporary file (write-only mode keeps only the current row in memory)."""
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=spec.title[:31])
    for index, header in enumerate(spec.headers):
        sheet.column_dimensions[get_column_letter(index + 1)].width = max(12, min(len(header) + 4, 40))
    bold = Font(bold=True)
    sheet.append([_header_cell(sheet, header, bold) for header in spec.headers])
    for row in _stream(rows):
        sheet.append([xlsx_cell(sheet, value) for value in spec.values(row)])
    target = tempfile.TemporaryFile()  # noqa: SIM115 — FileResponse closes (and so deletes) it when sent
    workbook.save(target)
    target.seek(0)
    return target


def _header_cell(sheet: Any, header: str, font: Font) -> Cell:
    cell = WriteOnlyCell(sheet, value=header)
    cell.font = font
    return cell
