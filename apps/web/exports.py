"""Staff lists as spreadsheets: one streamed CSV/XLSX export shared by every list.

Each app declares, next to its list view, what a row of its list exports (`ExportSpec`: a Portuguese header and
a function of the row per column); this module does the rest once: the Brazilian convention (`;`, decimal
comma, dd/mm/aaaa, "Sim"/"Não", UTF-8 with BOM so Excel opens the accents right), formula injection
neutralized (apps.web.csvsafe), rows read with `iterator(chunk_size=…)` so 300,000 rows never sit in memory,
both formats streamed while the rows are read (the XLSX by apps.web.xlsxstream), and an audit event when the
columns carry personal data (LGPD art. 37: operations on personal data are recorded).

A list view adds one line before it paginates:

    if (fmt := requested_format(request)) is not None:
        return export_response(request, spec=OPERATORS, rows=rows, municipality=municipality, fmt=fmt)
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from apps.accounts.auditing import audit_list_export
from apps.tenancy.models import Municipality
from apps.web.csvsafe import safe_cell
from apps.web.xlsxstream import workbook_chunks

FORMAT_PARAM = "formato"
CSV, XLSX = "csv", "xlsx"
FORMATS = (CSV, XLSX)
CHUNK_SIZE = 2000
# Lines are sent in batches: one write per row would make 300,000 tiny chunks on the socket.
LINES_PER_CHUNK = 500
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
BOM = "\ufeff"


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
) -> StreamingHttpResponse:
    """The filtered rows of a list as a download; audited first when the columns hold personal data."""
    if spec.personal_headers:
        audit_list_export(
            actor=request.user,
            municipality=municipality,
            list_name=spec.name,
            title=spec.title,
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
    else:
        response = StreamingHttpResponse(xlsx_chunks(spec, rows), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


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


def xlsx_value(value: Any) -> Any:
    """A cell's value for the spreadsheet: dates and amounts stay numbers it can sum and sort (shown the
    Brazilian way by apps.web.xlsxstream's styles), text is neutralized and stripped of what XML cannot hold."""
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, str):
        return safe_cell(ILLEGAL_CHARACTERS_RE.sub("", value))
    if isinstance(value, dt.datetime):
        return _local(value).replace(tzinfo=None)
    if value is None or isinstance(value, int | float | Decimal | dt.date):
        return value
    return safe_cell(ILLEGAL_CHARACTERS_RE.sub("", str(value)))


def xlsx_chunks(spec: ExportSpec, rows: Iterable[Any]) -> Iterator[bytes]:
    """The workbook as a stream of bytes, produced while the rows are read (apps.web.xlsxstream)."""
    values = ([xlsx_value(value) for value in spec.values(row)] for row in _stream(rows))
    return workbook_chunks(spec.title, spec.headers, values)
