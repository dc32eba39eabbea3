"""Benchmark of permit issuance by 8 processes at once against the same writes in raw SQL, in the same run.

    .venv/bin/python benchmarks/run.py --scale 0.01 benchmarks/issuance.py        # through make bench
    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/outorga_bench_issuance \\
        .venv/bin/python benchmarks/issuance.py --permits 400 --rounds 3

Eight processes, started together at a barrier, issue permits for approved applications of one municipality
and one year — the worst case, since every issuance of a town and year takes the next number from the same
counter row and holds its lock until it commits.

- **baseline**: per permit, one transaction of hand-written SQL: the counter's ``UPDATE … RETURNING``, then the
  ``INSERT`` of the permit, of the application's timeline line and of the audit event, with the values of a
  permit the service issued (prepared before the clock starts). This is the least any correct issuance must
  write while holding the number; nothing is asked of the law and no chain hash is computed.
- **Outorga**: ``services.permit_issue`` in ``transaction.atomic`` per application, as the analyst's approval
  runs it (the law asked for validity and inspection calendar, the number taken last, the audit chain).

Both sides are checked after every round: as many permits as applications, no number given twice, none
skipped (the numbers of the round are exactly the next ones of the counter). The ratio is the baseline's wall
time over Outorga's. Run it against a database of its own: it migrates it and refuses any municipality other
than its synthetic one. It is a benchmark, not a test: pytest does not collect it.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import multiprocessing
import multiprocessing.synchronize
import os
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "outorga.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections, models, transaction  # noqa: E402

from apps.audit.models import AuditEvent  # noqa: E402
from apps.licensing import services  # noqa: E402
from apps.licensing.models import Application, ApplicationEvent, Permit  # noqa: E402
from apps.tenancy.models import Counter, Municipality  # noqa: E402
from apps.tenancy.numbering import format_number  # noqa: E402
from benchmarks.daily_sweep import AS_OF, _bulk, _clear, _municipality, _operators, _people, _vehicles  # noqa: E402
from benchmarks.results import Row, emit, interleaved  # noqa: E402

PROCESSES = 8
BASELINE_YEAR = (
    2100  # the baseline's permits are numbered in a year of their own: the real counter stays exact
)
FULL_PERMITS = 20_000  # per round at SCALE=1: a big city's yearly issuance, taken at once


# --- the synthetic town and its approved applications ---------------------------------------------------------


def build(applications: int) -> tuple[Municipality, list[tuple[int, int]]]:
    """A fresh town: one operator and one vehicle per application to come (the applications are made per round)."""
    municipality = _municipality()
    with transaction.atomic():
        _clear(municipality)
        Counter.objects.filter(municipality=municipality).delete()
        operators = _operators(municipality, _people(municipality, applications))
        vehicles = _vehicles(municipality, operators)
    return municipality, list(zip(operators, vehicles, strict=True))


def approved(municipality: Municipality, pairs: Sequence[tuple[int, int]], tag: int) -> list[int]:
    """Applications approved after a passed inspection, ready for permit_issue (numbered in a year of their own)."""
    return _bulk(
        Application,
        (
            Application(
                municipality=municipality,
                regime_id="olimpia_sp_escolar",
                number=f"{i + 1:06d}/{tag}",
                year=tag,
                sequence=i + 1,
                kind="vehicle_permit",
                state="approved",
                operator_id=operator,
                vehicle_id=vehicle,
                submitted_on=AS_OF - dt.timedelta(days=30),
                inspection_passed_on=AS_OF,
            )
            for i, (operator, vehicle) in enumerate(pairs)
        ),
    )


# --- the two sides, each run by PROCESSES forked processes -----------------------------------------------------


def issue_with_outorga(application_ids: list[int]) -> None:
    for pk in application_ids:
        with transaction.atomic():
            application = Application.objects.select_related("municipality", "operator", "vehicle").get(pk=pk)
            services.permit_issue(application=application, actor=None, as_of=AS_OF)


def _insert(model: type[models.Model]) -> tuple[str, list[models.Field[Any, Any]]]:
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks}) RETURNING id", fields  # noqa: S608


def _values(obj: models.Model, fields: list[models.Field[Any, Any]]) -> list[Any]:
    return [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]


class RawIssuance:
    """The baseline's statements and each permit's values, prepared before the clock starts from a permit the
    service issued (the same decision, timeline data and audit snapshot, so the same bytes are written)."""

    def __init__(self, municipality: Municipality, sample: Permit, application_ids: list[int]) -> None:
        self.counter = Counter.objects.get_or_create(
            municipality=municipality, kind="permit", year=BASELINE_YEAR
        )[0]
        event = ApplicationEvent.objects.filter(application=sample.application).latest("pk")
        audit = AuditEvent.objects.filter(action="permit.issue", object_id=str(sample.pk)).latest("pk")
        self.permit_sql, permit_fields = _insert(Permit)
        self.event_sql, event_fields = _insert(ApplicationEvent)
        self.audit_sql, audit_fields = _insert(AuditEvent)
        self.rows = []
        chain = "b" + uuid.uuid4().hex[:15]  # a chain of this round's own: audit rows are never deleted
        for application_id in application_ids:
            permit, line, act = copy.copy(sample), copy.copy(event), copy.copy(audit)
            permit.application_id, permit.year, permit.qr_token = (
                application_id,
                BASELINE_YEAR,
                uuid.uuid4().hex,
            )
            line.application_id = application_id
            act.chain, act.hash = chain, uuid.uuid4().hex + uuid.uuid4().hex
            self.rows.append(
                (_values(permit, permit_fields), _values(line, event_fields), _values(act, audit_fields))
            )
        names = [f.attname for f in permit_fields]
        self.at_sequence, self.at_number = names.index("sequence"), names.index("number")
        self.at_seq = [f.attname for f in audit_fields].index("seq")
        self.at_object = [f.attname for f in audit_fields].index("object_id")

    def issue(self, indexes: list[int]) -> None:
        for i in indexes:
            permit, line, act = (list(values) for values in self.rows[i])
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(
                    "UPDATE tenancy_counter SET last = last + 1 WHERE id = %s RETURNING last",
                    [self.counter.pk],
                )
                sequence = cursor.fetchone()[0]
                permit[self.at_sequence] = sequence
                permit[self.at_number] = format_number(sequence, BASELINE_YEAR)
                cursor.execute(self.permit_sql, permit)
                act[self.at_object] = str(cursor.fetchone()[0])
                act[self.at_seq] = sequence
                cursor.execute(self.event_sql, line)
                cursor.execute(self.audit_sql, act)


def _child(
    work: Callable[[list[Any]], None], share: list[Any], barrier: multiprocessing.synchronize.Barrier
) -> None:
    barrier.wait()
    work(share)
    connection.close()


def in_processes(work: Callable[[list[Any]], None], items: list[Any]) -> float:
    """Wall seconds for PROCESSES forked processes, started at one barrier, to do `work` on their shares."""
    connections.close_all()  # each child opens its own connection
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(PROCESSES + 1)
    children = [
        context.Process(target=_child, args=(work, items[n::PROCESSES], barrier)) for n in range(PROCESSES)
    ]
    for child in children:
        child.start()
    barrier.wait()
    started = time.perf_counter()
    for child in children:
        child.join()
    seconds = time.perf_counter() - started
    if any(child.exitcode for child in children):
        sys.exit("a child process failed: the figures would be wrong")
    return seconds


def exactly_once(municipality: Municipality, year: int, before: int, count: int) -> None:
    """Every application got a permit, numbered by the next `count` numbers: 0 duplicates, 0 lost."""
    sequences = sorted(
        Permit.objects.filter(municipality=municipality, year=year, sequence__gt=before).values_list(
            "sequence", flat=True
        )
    )
    if sequences != list(range(before + 1, before + count + 1)):
        sys.exit(f"numbering broken in {year}: {len(sequences)} permits for {count} applications")


# --- one round: the baseline, then Outorga, on fresh applications of the same town ------------------------------


class Rounds:
    def __init__(self, municipality: Municipality, pairs: list[tuple[int, int]], per_round: int) -> None:
        self.municipality, self.pairs, self.per_round, self.done = municipality, pairs, per_round, 0

    def _next_pairs(self) -> list[tuple[int, int]]:
        start = self.done * self.per_round
        self.done += 1
        return self.pairs[start : start + self.per_round]

    def _last(self, year: int) -> int:
        row = Counter.objects.filter(municipality=self.municipality, kind="permit", year=year).first()
        return row.last if row else 0

    def outorga(self) -> float:
        ids = approved(self.municipality, self._next_pairs(), 3000 + self.done)
        before = self._last(AS_OF.year)
        seconds = in_processes(issue_with_outorga, ids)
        exactly_once(self.municipality, AS_OF.year, before, len(ids))
        return seconds

    def baseline(self) -> float:
        sample = Permit.objects.filter(municipality=self.municipality, year=AS_OF.year).latest("pk")
        ids = approved(self.municipality, self._next_pairs(), 3000 + self.done)
        raw = RawIssuance(self.municipality, sample, ids)
        before = self._last(BASELINE_YEAR)
        seconds = in_processes(raw.issue, list(range(len(ids))))
        exactly_once(self.municipality, BASELINE_YEAR, before, len(ids))
        return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, default=0.01, help="fraction of a big city's yearly issuance")
    parser.add_argument("--permits", type=int, help="permits per side and round (default: from --scale)")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("needs PostgreSQL: SQLite serializes every writer, there is no concurrency to measure")
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    call_command("migrate", verbosity=0)
    per_round = options.permits or max(int(FULL_PERMITS * options.scale), 10 * PROCESSES)
    municipality, pairs = build(per_round * (2 * options.rounds + 1))
    rounds = Rounds(municipality, pairs, per_round)
    warm_ids = approved(municipality, rounds._next_pairs(), 3000)
    # One issuance in the parent first, so that the forked children start as long-lived workers do: regimes
    # loaded, the configuration read, query paths compiled. Otherwise every child pays that once-per-process
    # start (~0.7 s of CPU each) inside the timed window of every round, which no steady issuance pays.
    issue_with_outorga(warm_ids[:1])
    warm = in_processes(issue_with_outorga, warm_ids[1:])
    print(f"{per_round} permits per side and round, {PROCESSES} processes; warm-up {warm:.2f} s", flush=True)
    baseline, measured = interleaved(rounds.baseline, rounds.outorga, options.rounds)
    print(f"baseline {baseline:.2f} s, Outorga {measured:.2f} s (medians of {options.rounds} rounds)")
    emit(
        Row(
            measure=f"permit issuance, {PROCESSES} processes ({per_round} permits)",
            baseline="counter UPDATE … RETURNING and the same inserts in raw SQL, per transaction",
            baseline_value=baseline,
            outorga_value=measured,
            unit="s",
            goal=0.5,
        )
    )


if __name__ == "__main__":
    main()
