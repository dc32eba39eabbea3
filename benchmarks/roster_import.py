"""Benchmark of the platform roster import against PostgreSQL's COPY of the same rows, in the same run.

    createdb -h 127.0.0.1 -U postgres outorga_roster_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/outorga_roster_bench .venv/bin/python benchmarks/roster_import.py
    ... benchmarks/roster_import.py --rows 30000            # a smaller file

Run it against a database of its own: it migrates it and refuses to run if it holds any municipality other than
its synthetic "Patrocínio (benchmark)". A synthetic CSV of --rows drivers (valid CPFs, Mercosul and old plates,
CNH categories and ISO dates, already in the stored form so COPY can load it untouched) is written to a
temporary file, then, over the same file:

1. copy — ``COPY roster_copy (cpf, name, plate, cnh_category, cnh_expiry) FROM STDIN (FORMAT csv, HEADER)`` into a
   plain table with a primary key and a unique key on the CPF, in one transaction (platforms_rosterentry carries
   the same two: its primary key and the unique (roster_import, cpf) key; nothing was added to the baseline);
2. import — roster.roster_import over the file (one transaction: import record; every line validated — CPF check
   digits, plate, category, date, duplicates — and sent to COPY as soon as it is accepted, inside a savepoint;
   the previous roster deleted);
3. replace — the same import again, now replacing a roster of the same drivers (the platform's daily upload);
4. queued — the path of a file sent over HTTP: roster_upload_accept (all the web worker waits for: the bytes
   stored and the task queued) and then roster_import_run (the task worker, writing its progress as it reads
   through a connection of its own).

The figures are import / copy and replace / copy; "validate alone" is roster.read_csv without a database, the
validation's share. It is a benchmark, not a test: pytest does not collect it.

PostgreSQL, 300,000 lines, shared machine, 30/11/2026: copy 2.95 s; import 10.81 s (validate 4.45 s, store
6.37 s) = 3.67× COPY; replace 8.68 s = 2.94× COPY.
Heavily loaded machine, 01/12/2026: copy 7.40 s; import 37.30 s = 5.04×; replace 49.23 s = 6.65×; queued: the
web request 4.45 s (17.8 MB stored, task queued), the task worker 48.74 s = 6.59× COPY.
After streaming into COPY and the per-import key, 30,000 lines, load 7, 06/12/2026: copy 0.30 s; validate alone
0.20 s; import 0.41 s = 1.37× COPY; replace 0.41 s = 1.37×; queued: web request 0.21 s, task worker 0.68 s = 2.27×.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "outorga.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from apps.platforms.models import Platform, RosterEntry, RosterImport, RosterUpload  # noqa: E402
from apps.platforms.services import roster  # noqa: E402
from apps.tenancy.models import Municipality  # noqa: E402
from benchmarks.results import Row, emit, interleaved  # noqa: E402

IBGE = "3148103"
CNPJ = "11222333000181"
SEED = 20261130
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CATEGORIES = ("B", "AB", "C", "D", "E")
COPY_TABLE = "roster_copy"


def cpf_with_check_digits(base: int) -> str:
    digits = [int(c) for c in f"{base:09d}"]
    for size in (9, 10):
        total = sum(n * w for n, w in zip(digits, range(size + 1, 1, -1), strict=False))
        digits.append(total * 10 % 11 % 10)
    return "".join(map(str, digits))


def plate(n: int) -> str:
    letters = LETTERS[n % 26] + LETTERS[n // 26 % 26] + LETTERS[n // 676 % 26]
    middle = str(n // 17576 % 10) if n % 2 else LETTERS[n // 17576 % 10]
    return f"{letters}{n // 175760 % 10}{middle}{n % 100:02d}"


def write_csv(path: Path, rows: int) -> None:
    rng = random.Random(SEED)
    bases = rng.sample(range(1_000_000, 999_999_999), rows)
    with path.open("w", encoding="utf-8") as out:
        out.write("cpf;nome;placa;categoria_cnh;validade_cnh\n")
        for i, base in enumerate(bases):
            expiry = dt.date(2027, 1, 1) + dt.timedelta(days=i % 1500)
            out.write(
                f"{cpf_with_check_digits(base)};Motorista {i:06d} da Silva;{plate(i)};"
                f"{CATEGORIES[i % 5]};{expiry.isoformat()}\n"
            )


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def setup() -> tuple[Platform, Municipality]:
    others = Municipality.objects.exclude(ibge_code=IBGE)
    if others.exists():
        sys.exit("Refusing to run: this database holds other municipalities. Point DATABASE_URL at its own.")
    municipality, _ = Municipality.objects.get_or_create(
        ibge_code=IBGE,
        defaults={
            "name": "Patrocínio (benchmark)",
            "uf": "MG",
            "slug": "patrocinio-benchmark",
            "regimes": ["patrocinio_mg_aplicativo"],
        },
    )
    platform, _ = Platform.objects.get_or_create(cnpj=CNPJ, defaults={"name": "Plataforma (benchmark)"})
    RosterEntry.objects.filter(platform=platform).delete()
    RosterUpload.objects.filter(roster_import__platform=platform).delete()
    RosterImport.objects.filter(platform=platform).delete()
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {COPY_TABLE}")
        cursor.execute(
            f"CREATE TABLE {COPY_TABLE} (id bigserial PRIMARY KEY, cpf varchar(11) NOT NULL UNIQUE, "
            "name varchar(150) NOT NULL, plate varchar(7) NOT NULL, cnh_category varchar(3) NOT NULL, "
            "cnh_expiry date NULL)"
        )
    return platform, municipality


def copy_baseline(path: Path) -> int:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {COPY_TABLE}")
        columns = "cpf, name, plate, cnh_category, cnh_expiry"
        sql = f"COPY {COPY_TABLE} ({columns}) FROM STDIN (FORMAT csv, HEADER, DELIMITER ';')"
        with path.open("rb") as source, cursor.cursor.copy(sql) as copy:
            while chunk := source.read(1 << 20):
                copy.write(chunk)
        cursor.execute(f"SELECT count(*) FROM {COPY_TABLE}")
        return int(cursor.fetchone()[0])


def outorga_import(path: Path, platform: Platform, municipality: Municipality) -> tuple[float, int]:
    """roster.roster_import of the file: every line validated and stored as it is read, one transaction."""
    with path.open(encoding="utf-8-sig", newline="") as stream:
        seconds, record = timed(
            lambda: roster.roster_import(
                platform=platform, municipality=municipality, file_name=path.name, stream=stream
            )
        )
    if record.state != "imported":
        sys.exit(f"the synthetic file was refused: {record.rejections[:3]}")
    return seconds, RosterEntry.objects.filter(platform=platform).count()


def validate_only(path: Path) -> float:
    """roster.read_csv alone (no database): the validation's share of the import, for the detailed report."""
    with path.open(encoding="utf-8-sig", newline="") as stream:
        return timed(lambda: roster.read_csv(stream))[0]


def queued_import(path: Path, platform: Platform, municipality: Municipality) -> tuple[float, float, int]:
    content = path.read_bytes()
    accept_s, record = timed(
        lambda: roster.roster_upload_accept(
            actor=None, platform=platform, municipality=municipality, file_name=path.name, content=content
        )
    )
    run_s, done = timed(lambda: roster.roster_import_run(import_id=record.pk))
    if done.state != "imported":
        sys.exit(f"the queued file was not imported: {done.state}")
    return accept_s, run_s, done.stored_rows


def report_row(path: Path, platform: Platform, municipality: Municipality, rounds: int) -> None:
    """COPY of the file and Outorga's import of it (validation and store; each round replaces the roster),
    interleaved."""
    baseline, measured = interleaved(
        lambda: timed(lambda: copy_baseline(path))[0],
        lambda: outorga_import(path, platform, municipality)[0],
        rounds,
    )
    emit(
        Row(
            measure="roster import",
            baseline="PostgreSQL COPY of the same file into a plain table",
            baseline_value=baseline,
            outorga_value=measured,
            unit="s",
            goal=0.40,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=300_000)
    parser.add_argument(
        "--rounds", type=int, default=0, help="report the make-bench row: N interleaved rounds"
    )
    options = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("The baseline is PostgreSQL's COPY: point DATABASE_URL at a PostgreSQL database.")
    call_command("migrate", verbosity=0)
    platform, municipality = setup()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cadastro.csv"
        write_csv(path, options.rows)
        print(f"{options.rows:,} rows, {path.stat().st_size / 1e6:.1f} MB", flush=True)
        if options.rounds:
            report_row(path, platform, municipality, options.rounds)
            return
        copy_s, copied = timed(lambda: copy_baseline(path))
        print(f"copy:    {copy_s:7.2f} s ({copied:,} rows)", flush=True)
        print(f"validate alone: {validate_only(path):7.2f} s (read_csv, no database)", flush=True)
        for label in ("import", "replace"):
            total, stored = outorga_import(path, platform, municipality)
            print(f"{label}:  {total:7.2f} s ({stored:,} rows) = {total / copy_s:.2f}× COPY", flush=True)
        accept_s, run_s, stored = queued_import(path, platform, municipality)
        print(
            f"queued:  web request {accept_s:.2f} s; task worker {run_s:.2f} s ({stored:,} rows) = "
            f"{run_s / copy_s:.2f}× COPY",
            flush=True,
        )
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {COPY_TABLE}")


if __name__ == "__main__":
    main()
