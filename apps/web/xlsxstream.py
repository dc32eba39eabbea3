"""An XLSX workbook written as a stream: the first bytes leave before the last row is read.

openpyxl must finish the workbook (a ZIP file whose directory comes last) before anything can be sent, so a
300,000-row list made the user wait for the whole file and held it on disk first. Here the ZIP is written to a
sink that is emptied after every batch of rows: the sheet's XML is deflated as it is produced, each entry's
sizes go in a data descriptor after it (the ZIP format's provision for streams), and the central directory is
the last chunk. Memory stays at one batch of rows, whatever the number of rows.

One sheet, inline strings (no shared-string table to keep in memory), five cell styles: default, bold header,
date, date and time, money. The values arrive already converted (apps.web.exports.xlsx_value).
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any
from xml.sax.saxutils import escape, quoteattr

ROWS_PER_CHUNK = 500
EPOCH = dt.datetime(1899, 12, 30)  # day 0 of the spreadsheet calendar (Excel's 1900 system, as LibreOffice)
HEADER, DATE, DATETIME, MONEY = 1, 2, 3, 4  # indexes of cellXfs in STYLES

XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
SPREADSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml"
PACKAGE_NS = "http://schemas.openxmlformats.org/package/2006"
RELATION = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

CONTENT_TYPES = (
    f'{XML}<Types xmlns="{PACKAGE_NS}/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{SPREADSHEET}.sheet.main+xml"/>'
    f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{SPREADSHEET}.worksheet+xml"/>'
    f'<Override PartName="/xl/styles.xml" ContentType="{SPREADSHEET}.styles+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    f'{XML}<Relationships xmlns="{PACKAGE_NS}/relationships">'
    f'<Relationship Id="rId1" Type="{RELATION}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK_RELS = (
    f'{XML}<Relationships xmlns="{PACKAGE_NS}/relationships">'
    f'<Relationship Id="rId1" Type="{RELATION}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{RELATION}/styles" Target="styles.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    f'{XML}<workbook xmlns="{MAIN_NS}" xmlns:r="{RELATION}">'
    '<sheets><sheet name={name} sheetId="1" r:id="rId1"/></sheets></workbook>'
)
FONT = '<sz val="11"/><name val="Calibri"/>'
STYLES = (
    f'{XML}<styleSheet xmlns="{MAIN_NS}">'
    '<numFmts count="3"><numFmt numFmtId="164" formatCode="DD/MM/YYYY"/>'
    '<numFmt numFmtId="165" formatCode="DD/MM/YYYY HH:MM"/><numFmt numFmtId="166" formatCode="#,##0.00"/></numFmts>'
    f'<fonts count="2"><font>{FONT}</font><font><b/>{FONT}</font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="5">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)
SHEET_START = f'{XML}<worksheet xmlns="{MAIN_NS}">'


class _Sink(io.RawIOBase):
    """A write-only, unseekable file: what the ZIP writer wrote since the last ``take()``."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data = b"".join(self._parts)
        self._parts.clear()
        return data


def _serial(value: dt.date | dt.datetime) -> str:
    moment = value if isinstance(value, dt.datetime) else dt.datetime(value.year, value.month, value.day)
    days = (moment - EPOCH).total_seconds() / 86400
    return repr(round(days, 8)) if isinstance(value, dt.datetime) else str(int(days))


def _text(value: str, style: int = 0) -> str:
    attr = f' s="{style}"' if style else ""
    return f'<c t="inlineStr"{attr}><is><t xml:space="preserve">{escape(value)}</t></is></c>'


def cell_xml(value: Any) -> str:
    """One cell: text inline, numbers as numbers, dates as serial days with a Brazilian date format."""
    if value is None:
        return "<c/>"
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, dt.datetime):
        return f'<c s="{DATETIME}"><v>{_serial(value)}</v></c>'
    if isinstance(value, dt.date):
        return f'<c s="{DATE}"><v>{_serial(value)}</v></c>'
    if isinstance(value, Decimal):
        style = f' s="{MONEY}"' if value.as_tuple().exponent == -2 else ""
        return f"<c{style}><v>{format(value, 'f')}</v></c>"
    return f"<c><v>{value!r}</v></c>"


def _row(cells: Iterable[str]) -> str:
    return "<row>" + "".join(cells) + "</row>"


def _columns(headers: Sequence[str]) -> str:
    widths = (max(12, min(len(header) + 4, 40)) for header in headers)
    cols = "".join(
        f'<col min="{i}" max="{i}" width="{width}" customWidth="1"/>' for i, width in enumerate(widths, 1)
    )
    return f"<cols>{cols}</cols>"


def workbook_chunks(title: str, headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[bytes]:
    """The .xlsx file, in chunks: the fixed parts, then the sheet a batch of rows at a time, then the directory.

    ``rows`` are lists of values already converted for a spreadsheet (str, int, float, Decimal, date, None).
    """
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", ROOT_RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK.format(name=quoteattr(title[:31])))
        archive.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        archive.writestr("xl/styles.xml", STYLES)
        yield sink.take()
        with archive.open("xl/worksheets/sheet1.xml", "w") as sheet:
            sheet.write((SHEET_START + _columns(headers) + "<sheetData>").encode())
            sheet.write(_row(_text(header, HEADER) for header in headers).encode())
            batch: list[str] = []
            for values in rows:
                batch.append(_row(cell_xml(value) for value in values))
                if len(batch) >= ROWS_PER_CHUNK:
                    sheet.write("".join(batch).encode())
                    batch = []
                    yield sink.take()
            sheet.write(("".join(batch) + "</sheetData></worksheet>").encode())
    yield sink.take()
