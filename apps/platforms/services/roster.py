"""Roster import: a platform's CSV of drivers, validated line by line, imported whole or not at all.

Every line is checked (CPF, plate, CNH category, dates, duplicates); one refused line refuses the file, and the
answer lists every refused line with its number and reason. A clean file replaces the platform's roster in the
municipality in one transaction, so a reader never sees half of the old and half of the new roster.

The lines are stored while they are read: each accepted line goes straight into the insert (COPY on
PostgreSQL, batched INSERTs on SQLite) inside a savepoint, so the database stores while Python checks the next
lines. At the first refused line the insert stops and the reading goes on to report every refused line; the
savepoint is then rolled back and the old roster stays as it was.

Files sent over HTTP (the staff screen and the platform API) are queued (`roster_upload_accept`) and imported
by the task worker (`roster_import_run`), which writes its progress on the import's row as it reads, so no web
worker waits for a 300,000-line file and the progress page can show lines read, rejected and stored.
"""

from __future__ import annotations

import csv
import datetime as dt
import enum
import io
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, Final, Literal

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from apps.accounts.actors import Actor, actor_user
from apps.audit.services import audit_record
from apps.platforms.choices import ROSTER_FINISHED, RosterImportState
from apps.platforms.models import Platform, RosterEntry, RosterImport, RosterUpload
from apps.tenancy.models import Municipality
from apps.web.csvsafe import safe_row

logger = logging.getLogger(__name__)

REQUIRED_COLUMNS = ("cpf", "nome", "placa", "categoria_cnh")
OPTIONAL_COLUMNS = ("validade_cnh",)
CNH_CATEGORIES = frozenset({"A", "B", "C", "D", "E", "AB", "AC", "AD", "AE"})
# Matched with fullmatch: `$` would also accept a trailing line break.
PLATE = re.compile(r"[A-Z]{3}[0-9][A-Z0-9][0-9]{2}")
NOT_DIGITS = re.compile(r"\D")
PLATE_SEPARATORS = re.compile(r"[\s.\-/]")
BR_DATE = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")
INSERT_BATCH = 2000
PROGRESS_EVERY_SECONDS = 0.5
# Distinct expiry texts remembered per file (a roster has a few thousand dates; the bound is for hostile files).
DATE_MEMORY = 20_000
# 300,000 lines take about 15 MB; the bytes wait in the database until the worker reads them.
MAX_UPLOAD_BYTES = 64 * 1024 * 1024
TOO_LARGE = "Arquivo grande demais: o limite é 64 MB (cerca de 1,2 milhão de linhas)."

Row = tuple[int, str, str, str, str, dt.date | None]  # line, cpf, name, plate, category, expiry


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
    rows: list[Row] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    total: int = 0
    rejected_lines: int = 0


def _cpf_chunk_table(first: tuple[int, int, int], second: tuple[int, int, int]) -> dict[str, int]:
    """For each 3-digit text, its weighted sums for both check digits, packed as `a + (b << 10)`.

    The first sum of a whole CPF is at most 9 × (10 + … + 2) = 486 < 1024, so the packed sums of the three
    chunks add up without one field spilling into the other.
    """
    table = {}
    for number in range(1000):
        text = f"{number:03d}"
        digits = [int(c) for c in text]
        a = sum(d * w for d, w in zip(digits, first, strict=True))
        b = sum(d * w for d, w in zip(digits, second, strict=True))
        table[text] = a + (b << 10)
    return table


# Weights 10…2 (first check digit) and 11…3 (second, over the same nine digits) for positions 0–2, 3–5, 6–8.
_CPF_CHUNKS = (
    _cpf_chunk_table((10, 9, 8), (11, 10, 9)),
    _cpf_chunk_table((7, 6, 5), (8, 7, 6)),
    _cpf_chunk_table((4, 3, 2), (5, 4, 3)),
)
_CHECK_DIGIT = [str(total * 10 % 11 % 10) for total in range(1024)]


def cpf_is_valid(digits: str) -> bool:
    """The Receita Federal check digits (same answer as registry.validate_cpf, much faster for bulk files):
    three table lookups instead of twenty multiplications, no list per CPF."""
    if len(digits) != 11 or digits == digits[0] * 11:
        return False
    head, middle, tail = _CPF_CHUNKS
    try:
        packed = head[digits[:3]] + middle[digits[3:6]] + tail[digits[6:9]]
    except KeyError:  # not ASCII digits
        return False
    if digits[9] != _CHECK_DIGIT[packed & 1023]:
        return False
    # The second check digit also weighs the first one by 2.
    return digits[10] == _CHECK_DIGIT[(packed >> 10) + 2 * (ord(digits[9]) - 48)]


def read_csv(
    stream: IO[str], progress: Callable[[int], object] | None = None, into: Validated | None = None
) -> Validated:
    """Validate the whole file; `progress(n)` is told every 1,000 lines (the command draws a bar).

    `into` lets the caller watch the result fill up while it is read (the background import reports it).
    """
    result = into if into is not None else Validated()
    result.rows.extend(valid_rows(stream, result, progress))
    return result


def valid_rows(
    stream: IO[str], result: Validated, progress: Callable[[int], object] | None = None
) -> Iterator[Row]:
    """Yield each accepted line as soon as it is read; refused lines and counts go into `result`."""
    try:
        sample = stream.readline()
        reader = csv.reader(
            _chain(sample, stream), delimiter=";" if sample.count(";") > sample.count(",") else ","
        )
        header = next(reader, None)
        columns = _check_header(header, result)
        if columns is not None:
            yield from _read_rows(reader, columns, result, progress)
    except UnicodeDecodeError:
        result.rejections.append(Rejection(0, "", "encoding_invalid", "O arquivo não está em UTF-8."))
    except csv.Error as exc:
        result.rejections.append(Rejection(0, "", "csv_malformed", f"CSV malformado: {exc}."))


def _chain(first: str, rest: Iterable[str]) -> Iterator[str]:
    yield first
    yield from rest


def _check_header(header: list[str] | None, result: Validated) -> list[str] | None:
    if not header or not any(cell.strip() for cell in header):
        result.rejections.append(
            Rejection(
                1,
                "",
                "file_empty",
                f"Arquivo vazio: a primeira linha deve ser o cabeçalho ({', '.join(REQUIRED_COLUMNS)}).",
            )
        )
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
) -> Iterator[Row]:
    """The per-line loop, kept flat: positions instead of a dict per line, normalisation only when the cell
    is not already in its stored form, and a Rejection built only for a refused line."""
    first_line_of: dict[str, int] = {}
    width = len(columns)
    at_cpf, at_name, at_plate, at_category, at_expiry = _positions(columns)
    expiry_of = _DateReader()
    for cells in reader:
        line = reader.line_num
        result.total += 1
        if progress is not None and result.total % 1000 == 0:
            progress(1000)
        if len(cells) != width:
            _wrong_width(line, cells, width, result)
            continue
        cpf = cells[at_cpf]
        if not (cpf.isascii() and cpf.isdigit()):
            cpf = NOT_DIGITS.sub("", cpf)
        name = cells[at_name].strip()
        plate = cells[at_plate]
        if PLATE.fullmatch(plate) is None:
            plate = PLATE_SEPARATORS.sub("", plate).upper()
        category = cells[at_category]
        if category not in CNH_CATEGORIES:
            category = category.strip().upper()
        expiry = expiry_of(cells[at_expiry]) if at_expiry is not None else None
        if _acceptable(cpf, name, plate, category, first_line_of) and expiry is not _BAD_DATE:
            first_line_of[cpf] = line
            yield line, cpf, name, plate, category, expiry
            continue
        result.rejections += _refusals(line, cpf, name, plate, category, expiry, first_line_of)
        result.rejected_lines += 1
    if progress is not None:
        progress(result.total % 1000)


def _positions(columns: list[str]) -> tuple[int, int, int, int, int | None]:
    """Where each column sits in a line: cpf, name, plate, CNH category and the optional expiry."""
    at_cpf, at_name, at_plate, at_category = (columns.index(name) for name in REQUIRED_COLUMNS)
    at_expiry = columns.index("validade_cnh") if "validade_cnh" in columns else None
    return at_cpf, at_name, at_plate, at_category, at_expiry


def _wrong_width(line: int, cells: list[str], width: int, result: Validated) -> None:
    if not any(c.strip() for c in cells):
        result.total -= 1  # a blank line is not a row
        return
    message = f"A linha tem {len(cells)} campos; o cabeçalho tem {width}."
    result.rejections.append(Rejection(line, "", "field_count", message))
    result.rejected_lines += 1


def _acceptable(cpf: str, name: str, plate: str, category: str, first_line_of: dict[str, int]) -> bool:
    """Every field but the expiry in its stored form, the CPF not on an earlier line (_refusals says why not)."""
    return (
        cpf_is_valid(cpf)
        and cpf not in first_line_of
        and bool(name)
        and len(name) <= 150
        and PLATE.fullmatch(plate) is not None
        and category in CNH_CATEGORIES
    )


def _refusals(
    line: int, cpf: str, name: str, plate: str, category: str, expiry: Expiry, first_line_of: dict[str, int]
) -> list[Rejection]:
    """Every reason a line is refused, field by field in the file's order."""
    errors: list[Rejection] = []
    if not cpf_is_valid(cpf):
        errors.append(
            Rejection(line, "cpf", "cpf_invalid", "CPF inválido (11 dígitos com verificadores corretos).")
        )
    elif cpf in first_line_of:
        errors.append(
            Rejection(line, "cpf", "duplicate_cpf", f"CPF repetido (já na linha {first_line_of[cpf]}).")
        )
    if not name or len(name) > 150:
        errors.append(Rejection(line, "nome", "name_invalid", "Nome: obrigatório, até 150 caracteres."))
    if PLATE.fullmatch(plate) is None:
        errors.append(
            Rejection(
                line, "placa", "plate_invalid", "Placa inválida: use ABC1234 (antiga) ou ABC1D23 (Mercosul)."
            )
        )
    if category not in CNH_CATEGORIES:
        errors.append(
            Rejection(
                line,
                "categoria_cnh",
                "cnh_category_invalid",
                "Categoria da CNH inválida (A, B, C, D, E, AB, AC, AD ou AE).",
            )
        )
    if expiry is _BAD_DATE:
        errors.append(
            Rejection(line, "validade_cnh", "date_invalid", "Validade da CNH: use dd/mm/aaaa ou aaaa-mm-dd.")
        )
    return errors


class _Bad(enum.Enum):
    DATE = "date"  # an expiry text that is not a date (None stands for a blank one)


_BAD_DATE: Final = _Bad.DATE
Expiry = dt.date | None | Literal[_Bad.DATE]


class _DateReader:
    """Expiry text → date, None (blank) or _BAD_DATE; a roster repeats a few thousand dates, each parsed once."""

    def __init__(self) -> None:
        self.known: dict[str, Expiry] = {}

    def __call__(self, text: str) -> Expiry:
        if text in self.known:
            return self.known[text]
        day = _parse_date(text)
        if len(self.known) < DATE_MEMORY:
            self.known[text] = day
        return day


def _parse_date(text: str) -> Expiry:
    text = text.strip()
    if not text:
        return None
    match = BR_DATE.match(text)
    try:
        return dt.date(int(match[3]), int(match[2]), int(match[1])) if match else dt.date.fromisoformat(text)
    except ValueError:
        return _BAD_DATE


@transaction.atomic
def roster_import(
    *,
    platform: Platform,
    municipality: Municipality,
    file_name: str,
    stream: IO[str],
    progress: Callable[[int], object] | None = None,
) -> RosterImport:
    """Read and store a file in this process (the command): the lines are stored as they are validated."""
    record = RosterImport.objects.create(
        platform=platform,
        municipality=municipality,
        file_name=file_name[:200],
        state=RosterImportState.READING,
    )
    result = Validated()
    return _store(record, result, valid_rows(stream, result, progress))


def _store(record: RosterImport, result: Validated, rows: Iterator[Row]) -> RosterImport:
    """Replace the roster with `rows` (read as they are stored) and record the outcome (caller's transaction).

    `result` fills up while `rows` is read: when the rows are exhausted it holds every refused line.
    """
    # One import at a time per platform: it also makes "one import's lines per platform and town" hold.
    list(Platform.objects.select_for_update().filter(pk=record.platform_id).values_list("pk", flat=True))
    stored = _replace_roster(record, rows, result)
    state = RosterImportState.REJECTED if result.rejections else RosterImportState.IMPORTED
    record.state, record.total_rows, record.finished_at = state, result.total, timezone.now()
    record.rejected_rows = len({r.line for r in result.rejections})
    record.rejections = [r.to_dict() for r in result.rejections]
    record.stored_rows = stored
    record.save()
    RosterUpload.objects.filter(roster_import=record).delete()
    audit_record(
        actor=record.uploaded_by,
        municipality=record.municipality,
        action=f"platform_roster.{state}",
        obj=record,
        after={
            "platform": record.platform.name,
            "file": record.file_name,
            "rows": record.total_rows,
            "rejected_rows": record.rejected_rows,
        },
    )
    return record


class _Refused(Exception):
    """A line was refused: what this file inserted goes back to the savepoint."""


def _replace_roster(record: RosterImport, rows: Iterator[Row], result: Validated) -> int:
    """Delete the platform's roster in the town and insert `rows`, inside a savepoint; the number stored.

    When a line is refused the insert stops, the rest of the file is still read (every refused line is
    reported) and the savepoint is rolled back: nothing of this file stays, the old roster is untouched.
    """
    try:
        with transaction.atomic():
            previous = RosterImport.objects.filter(
                platform=record.platform_id, municipality=record.municipality_id
            ).exclude(pk=record.pk)
            RosterEntry.objects.filter(roster_import__in=previous.values("pk")).delete()
            stored = _insert_entries(record, rows, result)
            if result.rejections:
                raise _Refused
            return stored
    except _Refused:
        for _ in rows:  # read to the end: every refused line is reported
            pass
        return 0


def _insert_entries(record: RosterImport, rows: Iterator[Row], result: Validated) -> int:
    """Insert the rows in batches as they come; stop (raise _Refused) once a line has been refused."""
    if connection.vendor == "postgresql":
        return _copy_entries(record, rows, result)
    fixed = {
        "platform_id": record.platform_id,
        "municipality_id": record.municipality_id,
        "roster_import_id": record.pk,
    }
    stored = 0
    for batch in _batches(rows, result):
        RosterEntry.objects.bulk_create(
            RosterEntry(
                **fixed,
                line=line,
                cpf=cpf,
                name=name,
                plate=plate,
                cnh_category=category,
                cnh_expiry=expiry,
            )
            for line, cpf, name, plate, category, expiry in batch
        )
        stored += len(batch)
    return stored


def _batches(rows: Iterator[Row], result: Validated) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) == INSERT_BATCH:
            if result.rejections:
                raise _Refused
            yield batch
            batch = []
    if result.rejections:
        raise _Refused
    if batch:
        yield batch


def _copy_entries(record: RosterImport, rows: Iterator[Row], result: Validated) -> int:
    """PostgreSQL COPY inside the same transaction: as atomic as INSERT, several times cheaper.

    Each batch is sent as soon as it is validated, so the server parses and stores it while the next one is
    read. Lines are built in COPY's text format (psycopg's per-row write_row costs more than the database
    does); only the name is free text: its backslashes, tabs and line breaks are escaped.
    """
    table = RosterEntry._meta.db_table
    columns = (
        "platform_id, municipality_id, roster_import_id, line, cpf, name, plate, cnh_category, cnh_expiry"
    )
    head = f"{record.platform_id}\t{record.municipality_id}\t{record.pk}\t"
    stored = 0
    with connection.cursor() as cursor, cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for batch in _batches(rows, result):
            copy.write(
                "".join(
                    f"{head}{line}\t{cpf}\t{_copy_text(name)}\t{plate}\t{category}\t"
                    f"{expiry.isoformat() if expiry else NULL}\n"
                    for line, cpf, name, plate, category, expiry in batch
                )
            )
            stored += len(batch)
    return stored


NULL = "\\N"
COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
COPY_SPECIAL = re.compile(r"[\\\t\n\r]")


def _copy_text(value: str) -> str:
    return value.translate(COPY_ESCAPES) if COPY_SPECIAL.search(value) else value


@transaction.atomic
def roster_upload_accept(
    *, actor: Actor, platform: Platform, municipality: Municipality, file_name: str, content: bytes
) -> RosterImport:
    """Queue a file for the task worker; the import row, the bytes and the task commit together."""
    from apps.platforms.tasks import import_roster

    record = RosterImport.objects.create(
        platform=platform,
        municipality=municipality,
        uploaded_by=actor_user(actor),
        file_name=file_name[:200],
        state=RosterImportState.QUEUED,
        expected_rows=max(_line_count(content) - 1, 0),
    )
    RosterUpload.objects.create(roster_import=record, content=content)
    audit_record(
        actor=actor,
        municipality=municipality,
        action="platform_roster.queued",
        obj=record,
        after={"platform": platform.name, "file": record.file_name, "bytes": len(content)},
    )
    # The database task backend stores the task in this same transaction: queued if and only if committed.
    import_roster.enqueue(record.pk)
    return record


def _line_count(content: bytes) -> int:
    return content.count(b"\n") + (0 if content.endswith(b"\n") or not content else 1)


def roster_import_run(*, import_id: int) -> RosterImport:
    """Import a queued file (run by the task worker). A second run of the same task finds it taken and stops.

    On PostgreSQL the lines are stored while they are read, in the one transaction that replaces the roster;
    the progress page cannot see inside that transaction, so the progress goes through a connection of its
    own (`_Progress`). SQLite allows one writer at a time: there the file is read first (progress written as
    it goes), then stored.
    """
    if not RosterImport.objects.filter(pk=import_id, state=RosterImportState.QUEUED).update(
        state=RosterImportState.READING
    ):
        return RosterImport.objects.get(pk=import_id)
    record = RosterImport.objects.select_related("platform", "municipality", "uploaded_by").get(pk=import_id)
    result = Validated()
    try:
        with _Progress(record, result) as progress:
            text = io.TextIOWrapper(io.BytesIO(_upload_bytes(record)), encoding="utf-8-sig", newline="")
            if connection.vendor == "postgresql":
                rows = _then(valid_rows(text, result, progress.lines), progress.read_all)
            else:
                read_csv(text, progress=progress.lines, into=result)
                progress.read_all()
                rows = iter(result.rows)
            with transaction.atomic():
                return _store(record, result, rows)
    except Exception:
        _fail(record)
        raise


def _upload_bytes(record: RosterImport) -> bytes:
    return bytes(RosterUpload.objects.get(roster_import=record).content)


def _then(rows: Iterator[Row], done: Callable[[], object]) -> Iterator[Row]:
    yield from rows
    done()


class _Progress:
    """The import's counters as the task worker reads the file, written at most every PROGRESS_EVERY_SECONDS.

    On PostgreSQL they are written through a second connection in autocommit, since the worker's own
    connection is inside the transaction storing the roster. That transaction does not touch the import's
    row until the file has been read (`read_all`), so the two never wait for each other.
    """

    def __init__(self, record: RosterImport, result: Validated) -> None:
        self.record, self.result = record, result
        self.last = 0.0
        self.side: BaseDatabaseWrapper | None = None

    def __enter__(self) -> _Progress:
        if connection.vendor == "postgresql":
            self.side = connections.create_connection(DEFAULT_DB_ALIAS)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.side is not None:
            self.side.close()

    def lines(self, _count: int) -> None:
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY_SECONDS:
            self.last = now
            self.write()

    def read_all(self) -> None:
        """Every line read: the final counts, and the step the page shows while the roster is stored."""
        self.write(finished_reading=True)

    def write(self, finished_reading: bool = False) -> None:
        counts = {"total_rows": self.result.total, "rejected_rows": self.result.rejected_lines}
        if self.side is not None:
            self._write_aside(self.side, counts, finished_reading)
        elif finished_reading:
            RosterImport.objects.filter(pk=self.record.pk).update(state=RosterImportState.STORING, **counts)
        else:
            RosterImport.objects.filter(pk=self.record.pk).update(**counts)

    def _write_aside(self, side: BaseDatabaseWrapper, counts: dict[str, int], finished_reading: bool) -> None:
        values: dict[str, int | str] = {**counts}
        if finished_reading:
            values["state"] = RosterImportState.STORING.value
        assignments = ", ".join(f"{column} = %s" for column in values)
        try:
            with side.cursor() as cursor:
                cursor.execute("SET lock_timeout = '2s'")
                cursor.execute(
                    f"UPDATE {RosterImport._meta.db_table} SET {assignments} WHERE id = %s",
                    [*values.values(), self.record.pk],
                )
        except DatabaseError:
            # The counters are a courtesy to the progress page: losing them must not fail the import.
            logger.warning("roster import %s: progress not written", self.record.pk, exc_info=True)


def _fail(record: RosterImport) -> None:
    """Nothing was stored (the storing transaction rolled back): say so and drop the file's bytes."""
    with transaction.atomic():
        RosterImport.objects.filter(pk=record.pk).update(
            state=RosterImportState.FAILED, finished_at=timezone.now(), stored_rows=0
        )
        RosterUpload.objects.filter(roster_import=record).delete()
        audit_record(
            actor=record.uploaded_by,
            municipality=record.municipality,
            action="platform_roster.failed",
            obj=record,
            after={"file": record.file_name},
        )


@dataclass(frozen=True)
class Progress:
    """What the progress page shows: a percentage of the lines read, and whether to keep asking."""

    finished: bool
    percent: int
    step: str


def roster_progress(record: RosterImport) -> Progress:
    finished = record.state in ROSTER_FINISHED
    if finished or record.state == RosterImportState.STORING:
        percent = 100
    else:
        percent = min(99, record.total_rows * 100 // record.expected_rows) if record.expected_rows else 0
    return Progress(finished=finished, percent=percent, step=STEP_TEXT[RosterImportState(record.state)])


STEP_TEXT = {
    RosterImportState.QUEUED: "Na fila: o arquivo será conferido em instantes.",
    RosterImportState.READING: "Conferindo as linhas (CPF, placa, categoria da CNH, datas, repetições).",
    RosterImportState.STORING: "Todas as linhas conferidas; gravando o cadastro de uma só vez (tudo ou nada).",
    RosterImportState.IMPORTED: "Importado: o cadastro anterior desta plataforma foi substituído por este.",
    RosterImportState.REJECTED: "Recusado: nada foi importado e o cadastro anterior continua valendo. "
    "Corrija as linhas listadas e envie de novo.",
    RosterImportState.FAILED: "Falhou por um erro do sistema: nada foi importado e o cadastro anterior "
    "continua valendo. Envie de novo; se persistir, avise a equipe de TI.",
}


def report_csv(record: RosterImport) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(["linha", "campo", "codigo", "motivo"])
    for item in record.rejections:
        writer.writerow(safe_row([item["line"], item["field"], item["code"], item["message"]]))
    return out.getvalue()
