"""Roster import: a platform's CSV of drivers, validated line by line, imported whole or not at all.

Every line is checked (CPF, plate, CNH category, dates, duplicates) before anything is written; one refused
line refuses the file, and the answer lists every refused line with its number and reason. A clean file
replaces the platform's roster in the municipality in one transaction (delete + insert; COPY on PostgreSQL),
so a reader never sees half of the old and half of the new roster.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import connection, transaction

from apps.audit.services import audit_record
from apps.platforms.choices import RosterImportState
from apps.platforms.models import Platform, RosterEntry, RosterImport
from apps.tenancy.models import Municipality
from apps.web.csvsafe import safe_row

REQUIRED_COLUMNS = ("cpf", "nome", "placa", "categoria_cnh")
OPTIONAL_COLUMNS = ("validade_cnh",)
CNH_CATEGORIES = frozenset({"A", "B", "C", "D", "E", "AB", "AC", "AD", "AE"})
PLATE = re.compile(r"^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$")
NOT_DIGITS = re.compile(r"\D")
PLATE_SEPARATORS = re.compile(r"[\s.\-/]")
BR_DATE = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")
INSERT_BATCH = 5000


@dataclass(frozen=True)
class Rejection:
    line: int
    field: str
    code: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "field": self.field, "code": self.code, "message": self.message}


@dataclass
class Validated:
    rows: list[tuple[int, str, str, str, str, dt.date | None]] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    total: int = 0


def cpf_is_valid(digits: str) -> bool:
    """The Receita Federal check digits (same answer as registry.validate_cpf, ~20× faster for bulk files)."""
    if len(digits) != 11 or digits == digits[0] * 11:
        return False
    numbers = [ord(c) - 48 for c in digits]
    for size in (9, 10):
        total = sum(n * w for n, w in zip(numbers[:size], range(size + 1, 1, -1), strict=True))
        if (total * 10 % 11) % 10 != numbers[size]:
            return False
    return True


def read_csv(stream: IO[str], progress: Callable[[int], object] | None = None) -> Validated:
    """Validate the whole file; `progress(n)` is told every 1,000 lines (the command draws a bar)."""
    result = Validated()
    try:
        sample = stream.readline()
        reader = csv.reader(
            _chain(sample, stream), delimiter=";" if sample.count(";") > sample.count(",") else ","
        )
        header = next(reader, None)
        columns = _check_header(header, result)
        if columns is not None:
            _read_rows(reader, columns, result, progress)
    except UnicodeDecodeError:
        result.rejections.append(Rejection(0, "", "encoding_invalid", "O arquivo não está em UTF-8."))
    except csv.Error as exc:
        result.rejections.append(Rejection(0, "", "csv_malformed", f"CSV malformado: {exc}."))
    return result


def _chain(first: str, rest: Iterable[str]) -> Iterator[str]:
    yield first
    yield from rest


def _check_header(header: list[str] | None, result: Validated) -> list[str] | None:
    if not header or not any(cell.strip() for cell in header):
        result.rejections.append(Rejection(1, "", "file_empty", "Arquivo vazio: a primeira linha deve ser o "
                                           f"cabeçalho ({', '.join(REQUIRED_COLUMNS)})."))  # fmt: skip
        return None
    columns = [cell.strip().lower() for cell in header]
    allowed = ", ".join(REQUIRED_COLUMNS + OPTIONAL_COLUMNS)
    for name in columns:
        if name not in REQUIRED_COLUMNS + OPTIONAL_COLUMNS:
            message = f"Coluna desconhecida: “{name}”. Colunas aceitas: {allowed}."
            result.rejections.append(Rejection(1, name, "unknown_column", message))
    for name in REQUIRED_COLUMNS:
        if name not in columns:
            result.rejections.append(
                Rejection(1, name, "missing_column", f"Falta a coluna obrigatória “{name}”.")
            )
    if len(set(columns)) != len(columns):
        result.rejections.append(Rejection(1, "", "duplicate_column", "Uma coluna aparece duas vezes."))
    return None if result.rejections else columns


def _read_rows(
    reader: Any, columns: list[str], result: Validated, progress: Callable[[int], object] | None
) -> None:
    first_line_of: dict[str, int] = {}
    width = len(columns)
    for cells in reader:
        line = reader.line_num
        result.total += 1
        if progress is not None and result.total % 1000 == 0:
            progress(1000)
        if len(cells) != width:
            if not any(c.strip() for c in cells):
                result.total -= 1  # a blank line is not a row
                continue
            message = f"A linha tem {len(cells)} campos; o cabeçalho tem {width}."
            result.rejections.append(Rejection(line, "", "field_count", message))
            continue
        _validate_row(line, dict(zip(columns, cells, strict=True)), result, first_line_of)
    if progress is not None:
        progress(result.total % 1000)


def _validate_row(line: int, row: dict[str, str], result: Validated, first_line_of: dict[str, int]) -> None:
    errors: list[Rejection] = []
    cpf = NOT_DIGITS.sub("", row["cpf"])
    if not cpf_is_valid(cpf):
        errors.append(
            Rejection(line, "cpf", "cpf_invalid", "CPF inválido (11 dígitos com verificadores corretos).")
        )
    elif cpf in first_line_of:
        errors.append(
            Rejection(line, "cpf", "duplicate_cpf", f"CPF repetido (já na linha {first_line_of[cpf]}).")
        )
    name = row["nome"].strip()
    if not name or len(name) > 150:
        errors.append(Rejection(line, "nome", "name_invalid", "Nome: obrigatório, até 150 caracteres."))
    plate = PLATE_SEPARATORS.sub("", row["placa"]).upper()
    if not PLATE.match(plate):
        errors.append(Rejection(line, "placa", "plate_invalid",
                                "Placa inválida: use ABC1234 (antiga) ou ABC1D23 (Mercosul)."))  # fmt: skip
    category = row["categoria_cnh"].strip().upper()
    if category not in CNH_CATEGORIES:
        errors.append(Rejection(line, "categoria_cnh", "cnh_category_invalid",
                                "Categoria da CNH inválida (A, B, C, D, E, AB, AC, AD ou AE)."))  # fmt: skip
    expiry, expiry_error = _parse_date(row.get("validade_cnh", ""), line)
    errors += expiry_error
    if errors:
        result.rejections.extend(errors)
        return
    first_line_of[cpf] = line
    result.rows.append((line, cpf, name, plate, category, expiry))


def _parse_date(text: str, line: int) -> tuple[dt.date | None, list[Rejection]]:
    text = text.strip()
    if not text:
        return None, []
    match = BR_DATE.match(text)
    try:
        day = dt.date(int(match[3]), int(match[2]), int(match[1])) if match else dt.date.fromisoformat(text)
    except ValueError:
        return None, [Rejection(line, "validade_cnh", "date_invalid",
                                "Validade da CNH: use dd/mm/aaaa ou aaaa-mm-dd.")]  # fmt: skip
    return day, []


@transaction.atomic
def roster_import(
    *, platform: Platform, municipality: Municipality, file_name: str, validated: Validated
) -> RosterImport:
    """Store the outcome; replace the roster only when no line was refused."""
    state = RosterImportState.REJECTED if validated.rejections else RosterImportState.IMPORTED
    record = RosterImport.objects.create(
        platform=platform, municipality=municipality, file_name=file_name[:200], state=state,
        total_rows=validated.total, rejected_rows=len({r.line for r in validated.rejections}),
        rejections=[r.to_dict() for r in validated.rejections],
    )  # fmt: skip
    if state == RosterImportState.IMPORTED:
        RosterEntry.objects.filter(platform=platform, municipality=municipality).delete()
        _insert_entries(record, validated.rows)
    audit_record(actor=None, municipality=municipality, action=f"platform_roster.{state}", obj=record,
                 after={"platform": platform.name, "file": record.file_name, "rows": record.total_rows,
                        "rejected_rows": record.rejected_rows})  # fmt: skip
    return record


def _insert_entries(record: RosterImport, rows: list[tuple[int, str, str, str, str, dt.date | None]]) -> None:
    fixed = (record.platform_id, record.municipality_id, record.pk)
    if connection.vendor == "postgresql":
        _copy_entries(fixed, rows)
        return
    RosterEntry.objects.bulk_create(
        (RosterEntry(platform_id=fixed[0], municipality_id=fixed[1], roster_import_id=fixed[2], line=line,
                     cpf=cpf, name=name, plate=plate, cnh_category=category, cnh_expiry=expiry)
         for line, cpf, name, plate, category, expiry in rows),
        batch_size=INSERT_BATCH,
    )  # fmt: skip


def _copy_entries(
    fixed: tuple[int, int, int], rows: list[tuple[int, str, str, str, str, dt.date | None]]
) -> None:
    """PostgreSQL COPY inside the same transaction: as atomic as INSERT, several times cheaper.

    Lines are built in COPY's text format and sent in chunks (psycopg's per-row write_row costs more than the
    database does). Only the name is free text: its backslashes, tabs and line breaks are escaped.
    """
    table = RosterEntry._meta.db_table
    columns = (
        "platform_id, municipality_id, roster_import_id, line, cpf, name, plate, cnh_category, cnh_expiry"
    )
    head = "\t".join(map(str, fixed))
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for start in range(0, len(rows), INSERT_BATCH):
            copy.write("".join(
                f"{head}\t{line}\t{cpf}\t{_copy_text(name)}\t{plate}\t{category}\t"
                f"{expiry.isoformat() if expiry else NULL}\n"
                for line, cpf, name, plate, category, expiry in rows[start : start + INSERT_BATCH]
            ))  # fmt: skip


NULL = "\\N"
COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(value: str) -> str:
    return value.translate(COPY_ESCAPES)


def report_csv(record: RosterImport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(["linha", "campo", "codigo", "motivo"])
    for item in record.rejections:
        writer.writerow(safe_row([item["line"], item["field"], item["code"], item["message"]]))
    return out.getvalue()
