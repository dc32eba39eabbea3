"""Benchmark of the daily sweep on a São Paulo-sized registry, against bare counts of the same rows.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/outorga_bench .venv/bin/python benchmarks/daily_sweep.py
    .venv/bin/python benchmarks/daily_sweep.py --scale 0.01          # 3,000 pairs, 24,000 documents (SQLite ok)

Run it against a database of its own: it migrates it, refuses to run if it holds any municipality other than
its synthetic "São Paulo (benchmark)", and replaces that municipality's rows on every run.

At --scale 1: 300,000 operators, each with a driver (person) and a vehicle with its permit; 2,400,000 documents
(four per person, four per vehicle); 30,000 applications pending documents. Dates are spread around AS_OF so each
step has real work (permits and documents past validity, suspensions ending, inspections overdue, cure deadlines
passed, reminders due at 60/30/7 days). Rows are bulk inserted (no service calls: this measures the sweep).

Reported, in the same run and over the same rows:
1. bare — for every step, a bare ``SELECT count(*) … WHERE <the step's own WHERE>``;
2. sweep — run_sweep(AS_OF), every UPDATE/INSERT it does (audit events, e-mails built and queued in the outbox);
3. again — run_sweep(AS_OF) a second time: it changes nothing (idempotent) and costs about the bare counts.
The figure is sweep / bare. It is a benchmark, not a test: nothing asserts, and pytest does not collect it.
With --rounds it reports the make-bench rows instead: the set-based SQL against the sweep, and the floor — the
SQL followed by the COPY of the audit events and e-mails one sweep wrote, already computed — which bounds the
ratio any sweep that writes those records can reach.

Full run on PostgreSQL (shared CI machine, 30/11/2026): bare counts 3.97 s; sweep 148.7 s (37.5×), of which
120.2 s build and record 323,126 reminder e-mails and 28.5 s change 198,000 permits, documents and applications;
the second, idempotent sweep 4.32 s (1.1×).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "outorga.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import F, Model, QuerySet  # noqa: E402

from apps.audit import services as audit_services  # noqa: E402
from apps.audit.models import AuditEvent  # noqa: E402
from apps.jobs import services as jobs_services  # noqa: E402
from apps.licensing import sweep  # noqa: E402
from apps.licensing.models import Application, ApplicationEvent, Permit, Reminder, new_qr_token  # noqa: E402
from apps.registry.models import Document, Driver, Operator, Person, Vehicle  # noqa: E402
from apps.tenancy.models import Municipality  # noqa: E402
from benchmarks.results import Row, emit  # noqa: E402
from outorga import bulkinsert  # noqa: E402

AS_OF = dt.date(2026, 6, 1)
FULL_PAIRS = 300_000
DOCS_PER_OWNER = 4
BATCH = 10_000
SEED = 20260601
IBGE = "3550308"
PERSON_KINDS = ("cnh", "address_proof", "criminal_record_certificate", "school_transport_course")
VEHICLE_KINDS = ("crlv", "app_insurance", "detran_school_authorization", "crv")


def _days(rng: random.Random, low: int, high: int) -> dt.date:
    return AS_OF + dt.timedelta(days=rng.randint(low, high))


def _bulk(model: type[Model], rows: Iterator[Model]) -> list[Any]:
    """Insert in batches; returns the primary keys (PostgreSQL and SQLite ≥ 3.35 return them)."""
    ids: list[Any] = []
    batch: list[Model] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            ids += [obj.pk for obj in model._default_manager.bulk_create(batch)]
            batch = []
    if batch:
        ids += [obj.pk for obj in model._default_manager.bulk_create(batch)]
    return ids


def _municipality() -> Municipality:
    others = Municipality.objects.exclude(ibge_code=IBGE)
    if others.exists():
        sys.exit(
            f"Refusing to run: this database holds other municipalities ({others.count()}). "
            "Point DATABASE_URL at a database of its own."
        )
    municipality, _ = Municipality.objects.get_or_create(
        ibge_code=IBGE,
        defaults={
            "name": "São Paulo (benchmark)",
            "uf": "SP",
            "slug": "sao-paulo-benchmark",
            "regimes": ["olimpia_sp_escolar"],
        },
    )
    return municipality


def _clear(municipality: Municipality) -> None:
    for model in (
        Reminder,
        ApplicationEvent,
        Application,
        Permit,
        Document,
        Driver,
        Vehicle,
        Operator,
        Person,
    ):
        field = "application__municipality" if model is ApplicationEvent else "municipality"
        model._default_manager.filter(**{field: municipality})._raw_delete(connection.alias)


def _people(m: Municipality, n: int) -> list[int]:
    return _bulk(
        Person,
        (
            Person(municipality=m, cpf=f"{i:011d}", name=f"Pessoa {i}", email=f"p{i}@exemplo.org")
            for i in range(n)
        ),
    )


def _operators(m: Municipality, people: list[int]) -> list[int]:
    return _bulk(
        Operator,
        (
            Operator(
                municipality=m,
                regime_id="olimpia_sp_escolar",
                kind="PF",
                person_id=p,
                status="active",
                registered_on=AS_OF,
            )
            for p in people
        ),
    )


def _vehicles(m: Municipality, operators: list[int]) -> list[int]:
    return _bulk(
        Vehicle,
        (
            Vehicle(
                municipality=m,
                operator_id=o,
                plate=f"B{i:06d}",
                renavam=f"{i:011d}",
                make="VW",
                model="Kombi",
                manufacture_year=2020,
                model_year=2021,
                seats=15,
                doors=4,
                registration_municipality_ibge=IBGE,
                registration_municipality_name="São Paulo",
                category="aluguel",
                owner_name="x",
                owner_document="00000000000",
                ownership_kind="own",
            )
            for i, o in enumerate(operators)
        ),
    )


def _drivers(m: Municipality, operators: list[int], people: list[int], vehicles: list[int]) -> None:
    _bulk(
        Driver,
        (
            Driver(
                municipality=m,
                operator_id=o,
                person_id=p,
                vehicle_id=v,
                role="principal",
                cnh_number="02650306461",
                cnh_category="D",
            )
            for o, p, v in zip(operators, people, vehicles, strict=True)
        ),
    )


def _permits(m: Municipality, operators: list[int], vehicles: list[int], rng: random.Random) -> None:
    def rows() -> Iterator[Permit]:
        for i, (o, v) in enumerate(zip(operators, vehicles, strict=True)):
            until = _days(rng, -30, 400)
            suspended = i % 50 == 0
            yield Permit(
                municipality=m,
                regime_id="olimpia_sp_escolar",
                number=f"{i + 1:06d}/2026",
                year=2026,
                sequence=i + 1,
                operator_id=o,
                vehicle_id=v,
                issued_on=until - dt.timedelta(days=365),
                valid_from=until - dt.timedelta(days=365),
                valid_until=until,
                state="suspended" if suspended else "active",
                suspended_until=_days(rng, -10, 20) if suspended else None,
                inspection_due_on=_days(rng, -60, 180),
                qr_token=new_qr_token(),
            )

    _bulk(Permit, rows())


def _documents(
    m: Municipality, owners: list[int], field: str, kinds: tuple[str, ...], rng: random.Random
) -> None:
    def rows() -> Iterator[Document]:
        for owner in owners:
            for kind in kinds:
                until = _days(rng, -20, 500)
                yield Document(
                    municipality=m,
                    kind=kind,
                    file="documents/bench.pdf",
                    content_type="application/pdf",
                    size_bytes=1000,
                    sha256="0" * 64,
                    issue_date=until - dt.timedelta(days=365),
                    valid_until=until,
                    status="valid",
                    **{f"{field}_id": owner},
                )

    _bulk(Document, rows())


def _applications(m: Municipality, operators: list[int], vehicles: list[int], rng: random.Random) -> None:
    count = len(operators) // 10
    _bulk(
        Application,
        (
            Application(
                municipality=m,
                regime_id="olimpia_sp_escolar",
                number=f"{i + 1:06d}/2026",
                year=2026,
                sequence=i + 1,
                kind="vehicle_permit",
                state="pending_documents",
                operator_id=operators[i],
                vehicle_id=vehicles[i],
                submitted_on=AS_OF - dt.timedelta(days=40),
                cure_deadline=_days(rng, -20, 20),
            )
            for i in range(count)
        ),
    )


def build(n: int) -> None:
    rng = random.Random(SEED)
    municipality = _municipality()
    steps: list[tuple[str, Callable[[], Any]]] = []
    with transaction.atomic():
        _clear(municipality)
        people = _people(municipality, n)
        operators = _operators(municipality, people)
        vehicles = _vehicles(municipality, operators)
        steps = [
            ("drivers", lambda: _drivers(municipality, operators, people, vehicles)),
            ("permits", lambda: _permits(municipality, operators, vehicles, rng)),
            ("person documents", lambda: _documents(municipality, people, "person", PERSON_KINDS, rng)),
            ("vehicle documents", lambda: _documents(municipality, vehicles, "vehicle", VEHICLE_KINDS, rng)),
            ("applications", lambda: _applications(municipality, operators, vehicles, rng)),
        ]
        for label, step in steps:
            started = time.perf_counter()
            step()
            print(f"  inserted {label} in {time.perf_counter() - started:.1f} s", flush=True)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _pristine(n: int) -> bool:
    """Whether the database holds this scale's rows exactly as `build` left them: every round is rolled back,
    so only a committed sweep (the detailed report's) leaves reminders or audit events behind. At São Paulo's
    size the build takes longer than the rounds; `make bench` runs again reuse it."""
    municipality = Municipality.objects.filter(ibge_code=IBGE).first()
    if municipality is None:
        return False
    mine = {"municipality": municipality}
    return (
        Permit.objects.filter(**mine).count() == n
        and Document.objects.filter(**mine).count() == n * 2 * DOCS_PER_OWNER
        and not Reminder.objects.filter(**mine).exists()
        and not AuditEvent.objects.filter(**mine).exists()
    )


def bare_querysets(as_of: dt.date) -> list[tuple[str, QuerySet[Any]]]:
    """Each step's WHERE, as the sweep writes it (sweep.py), for a bare count."""
    rows: list[tuple[str, QuerySet[Any]]] = [
        ("suspensions ending", sweep.suspensions_ending(as_of)),
        ("permits past validity", sweep.permits_past_validity(as_of)),
        ("documents past validity", sweep.documents_past_validity(as_of)),
        ("inspections newly overdue", sweep.inspections_newly_overdue(as_of)),
        ("applications past cure", sweep.applications_past_cure(as_of)),
    ]
    for days, first, last in sweep.reminder_windows(as_of):
        rows.append((f"permits to remind ({days} d)", sweep.permits_to_remind(days, first, last)))
        rows.append((f"documents to remind ({days} d)", sweep.documents_to_remind(days, first, last)))
    return rows


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = function()
    return time.perf_counter() - started, result


def run_steps(skip: tuple[str, ...] = ()) -> tuple[dict[str, tuple[int, float]], float]:
    """The whole sweep as the nightly job runs it (one run_sweep: a transaction per step, one summary event at
    the end), timing each step from its start to the next one's (the last step's time includes the summary)."""
    starts: list[tuple[str, float]] = []
    steps = tuple(step for step in sweep.STEPS if step.key not in skip)
    started = time.perf_counter()
    counts = sweep.run_sweep(
        AS_OF, steps=steps, on_step=lambda step: starts.append((step.key, time.perf_counter()))
    )
    ended = time.perf_counter()
    ends = [at for _, at in starts[1:]] + [ended]
    results = {key: (counts[key], end - at) for (key, at), end in zip(starts, ends, strict=True)}
    return results, ended - started


def measure() -> None:
    bare_total = 0.0
    print(f"{'bare SELECT count(*) … WHERE':<40}{'rows':>12}{'seconds':>10}")
    for label, queryset in bare_querysets(AS_OF):
        seconds, count = timed(queryset.count)
        bare_total += seconds
        print(f"  {label:<38}{count:>12,}{seconds:>10.3f}")
    first, sweep_seconds = run_steps()
    again, again_seconds = run_steps()
    print(f"{'sweep step':<32}{'changed':>10}{'seconds':>10}{'2nd run':>10}{'seconds':>10}")
    for key, (value, seconds) in first.items():
        print(f"  {key:<30}{value:>10,}{seconds:>10.2f}{again[key][0]:>10,}{again[key][1]:>10.2f}")
    print(
        f"\nbare counts: {bare_total:.2f} s   sweep: {sweep_seconds:.2f} s   second sweep: {again_seconds:.2f} s"
    )
    print(
        f"sweep / bare = {sweep_seconds / bare_total:.1f}×   second sweep / bare = {again_seconds / bare_total:.1f}×"
    )


# --- the limit: the same row changes in hand-written set-based SQL ------------------------------------------


def set_based_sql(as_of: dt.date) -> None:
    """Every step's row changes as one UPDATE or INSERT … SELECT each, nothing read back into Python: no
    audit events, no timeline lines, no e-mails (what the sweep adds on top is the product's)."""
    sweep.suspensions_ending(as_of).update(state="active", suspended_until=None)
    sweep.permits_past_validity(as_of).update(
        state="expired", closed_on=as_of, closed_reason="Validade encerrada."
    )
    sweep.documents_past_validity(as_of).update(status="expired")
    sweep.inspections_newly_overdue(as_of).update(inspection_overdue=True)
    sweep.applications_past_cure(as_of).update(state="archived", fees_forfeited=True, decided_on=as_of)
    sweep.applications_failed_past_cure(as_of).update(state="denied", decided_on=as_of)
    for days, first, last in sweep.reminder_windows(as_of):
        for target, due, emails in (
            ("permit", sweep.permits_to_remind(days, first, last), sweep.PERMIT_EMAIL),
            ("document", sweep.documents_to_remind(days, first, last), sweep.DOCUMENT_EMAIL),
        ):
            _insert_reminders(target, days, due.annotate(recipient=sweep._email(*emails)), as_of)


def _insert_reminders(target: str, days: int, due: QuerySet[Any], as_of: dt.date) -> None:
    named = due.order_by().annotate(m=F("municipality_id"), t=F("pk"), v=F("valid_until"))
    select, params = named.values("m", "t", "v", "recipient").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO licensing_reminder (municipality_id, target, target_id, days_before, expires_on, "
            f"recipient, sent_on) SELECT due.m, %s, due.t, %s, due.v, due.recipient, %s FROM ({select}) due "
            "WHERE true ON CONFLICT DO NOTHING",
            [target, days, as_of, *params],
        )


# The standing of each permit is the law engine's reading of its documents, row by row: no set-based SQL does
# the same, so it is measured on its own (the sweep's detail output, without --rounds).
NOT_IN_BASELINE = ("standings_recorded",)


def rolled_back(function: Callable[[], Any]) -> float:
    """Seconds to run `function` in a transaction then undone, so every round starts from the same rows."""
    with transaction.atomic():
        seconds, _ = timed(function)
        transaction.set_rollback(True)
    return seconds


# --- the floor: what any sweep that keeps the product's records must write on top of the baseline ------------


Captured = list[tuple[str, tuple[str, ...], list[tuple[Any, ...]]]]


def sweep_records() -> Captured:
    """The rows one (rolled-back) sweep hands to the bulk writer — its signed audit events and outbox e-mails —
    exactly as written, for the floor to write again without computing them. (The few timeline lines of closed
    applications go through the ORM and are left out: the floor can only be lower for it, still a bound.)"""
    captured: Captured = []

    def capture(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
        kept = [tuple(row) for row in rows]
        captured.append((table, tuple(columns), kept))
        return bulkinsert.insert_rows(table, columns, kept)

    with ExitStack() as stack:
        for module in (audit_services, jobs_services):
            stack.enter_context(mock.patch.object(module, "insert_rows", capture))
        rolled_back(lambda: run_steps(skip=NOT_IN_BASELINE))
    return captured


def floor(captured: Captured) -> None:
    """The baseline's row changes, then the sweep's own records, already computed and signed, by COPY."""
    set_based_sql(AS_OF)
    for table, columns, rows in captured:
        bulkinsert.insert_rows(table, columns, rows)


def report_row(rounds: int) -> None:
    captured = sweep_records()
    figures = [
        (
            rolled_back(lambda: set_based_sql(AS_OF)),
            rolled_back(lambda: floor(captured)),
            rolled_back(lambda: run_steps(skip=NOT_IN_BASELINE)),
        )
        for _ in range(rounds)
    ]
    baseline, least, measured = (statistics.median(column) for column in zip(*figures, strict=True))
    emit(
        Row(
            measure="daily sweep (all steps but standings_recorded)",
            baseline="the same row changes in set-based SQL (no audit, no e-mail)",
            baseline_value=baseline,
            outorga_value=measured,
            unit="s",
            goal=0.67,
        )
    )
    per_table: Counter[str] = Counter()
    for table, _, rows in captured:
        per_table[table] += len(rows)
    written = ", ".join(f"{count:,} {table}" for table, count in per_table.items())
    emit(
        Row(
            measure=f"daily sweep floor: the SQL + its records by COPY ({written})",
            baseline="the same row changes in set-based SQL (no audit, no e-mail)",
            baseline_value=baseline,
            outorga_value=least,
            unit="s",
            goal=None,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the São Paulo size (default 1)")
    parser.add_argument(
        "--reuse", action="store_true", help="keep the rows of a previous run (skip inserting)"
    )
    parser.add_argument(
        "--rounds", type=int, default=0, help="report the make-bench row: N interleaved rounds, rolled back"
    )
    options = parser.parse_args()
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    call_command("migrate", verbosity=0)
    n = max(int(FULL_PAIRS * options.scale), 10)
    print(
        f"{connection.vendor}: {n:,} drivers and vehicles, {n * 2 * DOCS_PER_OWNER:,} documents", flush=True
    )
    if options.reuse or _pristine(n):
        print("reusing the rows of a previous run", flush=True)
    else:
        seconds, _ = timed(lambda: build(n))
        print(f"built in {seconds:.1f} s", flush=True)
    if options.rounds:
        report_row(options.rounds)
    else:
        measure()


if __name__ == "__main__":
    main()
