"""Benchmark of lawcode bulk evaluation: synthetic vehicles for Olímpia's ``vehicle_permit``, with a reform.

    .venv/bin/python benchmarks/lawcode_bulk.py              # 300,000 vehicles (tens of minutes)
    .venv/bin/python benchmarks/lawcode_bulk.py --n 2000     # a CI-sized run

Three passes over the same deterministic stream of vehicles (seeded ``random.Random``):

1. baseline — the same loop, calling a trivial function that only builds the facts object;
2. bulk — ``evaluate_many`` under the law (max vehicle age 15) and under the reform (10), timed without
   tracemalloc; ru_maxrss is sampled along the way, so a flat line shows that memory does not grow;
3. memory — ``evaluate_many`` again over the first ``--memory-n`` vehicles with tracemalloc on (it slows
   Python down several times, so it is kept out of the timed pass), reporting current and peak traced memory.

Wall-clock and CPU seconds are both reported; on a shared machine the CPU figures (and the ratio to the
baseline, taken on CPU time) are the comparable ones. It prints small tables. It is a benchmark, not a test:
nothing asserts, and pytest does not collect it.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.results import Row, emit, interleaved  # noqa: E402
from lawcode.bulk import BulkReport, Reform, evaluate_many  # noqa: E402
from lawcode.facts import CNH, Document, Operator, Ownership, PermitApplication, Person, Vehicle  # noqa: E402

REGIME = "olimpia_sp_escolar"
QUESTION = "vehicle_permit"
AS_OF = dt.date(2026, 3, 10)
SEED = 20260310
REFORM = Reform.from_parameters({"max_vehicle_age": 10}, cite="art13_incII", name="idade máxima 15 → 10 anos")


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _operator() -> Operator:
    """A PF operator who meets Olímpia's art. 9 on AS_OF (shared by every vehicle: the vehicle varies)."""
    documents = tuple(
        Document(
            kind, issue_date=_date(issued), expiry_date=_date(expires) if expires else None, details=details
        )
        for kind, issued, expires, details in (
            ("school_transport_course", "2024-01-10", None, {}),
            ("address_proof", "2026-02-20", None, {}),
            ("municipal_registration", "2020-01-01", None, {}),
            ("municipal_tax_clearance", "2026-02-25", "2026-08-25", {}),
            ("no_gravissima_proof", "2026-02-25", None, {}),
            ("criminal_record_certificate", "2026-02-01", None, {"presented_on": "2026-03-02"}),
            ("criminal_distribution_certificate", "2026-02-01", None, {"presented_on": "2026-03-02"}),
            ("detran_fines_clearance", "2026-02-25", None, {}),
        )
    )
    person = Person(
        name="Operador Sintético",
        birth_date=_date("1980-05-10"),
        cnh=CNH("D", True, first_issue=_date("2000-06-01"), expiry=_date("2030-01-01")),
        documents=documents,
        resident_municipality="Olímpia",
        course_completed=True,
        traffic_infractions=(),  # a confirmed clean record: unknown infractions would deny every vehicle
    )
    return Operator("PF", person=person)


VEHICLE_DOCUMENTS = (
    Document("crv", issue_date=_date("2023-01-01")),
    Document("crlv", issue_date=_date("2026-01-10"), expiry_date=_date("2026-12-31")),
    Document("app_insurance", issue_date=_date("2026-01-01"), expiry_date=_date("2026-12-31")),
    Document("detran_school_authorization", issue_date=_date("2026-02-01"), expiry_date=_date("2026-07-31")),
)


def _vehicle(rng: random.Random, index: int) -> Vehicle:
    """A vehicle drawn from a plausible fleet: mostly recent, a few from elsewhere or with a bad tachograph."""
    year = rng.choice(range(2004, 2027))
    own = rng.random() < 0.9
    return Vehicle(
        plate=f"BEN{index % 10}{chr(65 + index % 26)}{index % 100:02d}",
        manufacture_year=year,
        model_year=year + rng.choice((0, 1)),
        seats=rng.randint(8, 20),
        registration_municipality="Olímpia" if rng.random() < 0.95 else "Barretos",
        category="aluguel",
        ownership=Ownership("own") if own else Ownership("comodato", renavam_link=rng.random() < 0.8),
        tachograph_ok=rng.random() < 0.97,
        permit_number_on_doors=True,
        detran_inspection_approved=True,
        registered_in_service_on=_date("2026-03-02"),
        documents=VEHICLE_DOCUMENTS,
    )


def synthetic_applications(n: int, seed: int = SEED) -> Iterator[PermitApplication]:
    """``n`` permit applications, one per synthetic vehicle; the same seed gives the same stream."""
    rng = random.Random(seed)
    template = PermitApplication(
        operator=_operator(), vehicle=Vehicle(), carries_children_under_4_or_pcd=False
    )
    for index in range(n):
        yield dataclasses.replace(template, vehicle=_vehicle(rng, index))


# --------------------------------------------------------------------------------------------------------------


def max_rss_mib() -> float:
    """Peak resident set size of this process so far (ru_maxrss is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sampled(stream: Iterable[Any], n: int, on_sample: Callable[[int], None]) -> Iterator[Any]:
    """Pass items through, calling ``on_sample(count)`` at 10%, 25%, 50%, 75% and 100% of ``n``."""
    marks = {max(1, round(n * share)) for share in (0.10, 0.25, 0.50, 0.75, 1.0)}
    for count, item in enumerate(stream, start=1):
        yield item
        if count in marks:
            on_sample(count)


class Timing(NamedTuple):
    """Wall-clock and CPU seconds of a pass (CPU time is the fair figure on a shared machine)."""

    wall: float
    cpu: float


def timed(start: Timing) -> Timing:
    return Timing(time.perf_counter() - start.wall, time.process_time() - start.cpu)


def now() -> Timing:
    return Timing(time.perf_counter(), time.process_time())


def run_baseline(n: int) -> Timing:
    """The same loop with a trivial body: only building each facts object."""
    kept: list[PermitApplication] = []

    def trivial(application: PermitApplication) -> None:
        if not kept:
            kept.append(application)

    start = now()
    for application in synthetic_applications(n):
        trivial(application)
    return timed(start)


def run_bulk(n: int) -> tuple[Timing, BulkReport, list[tuple[int, float]]]:
    rss: list[tuple[int, float]] = []
    stream = sampled(synthetic_applications(n), n, lambda count: rss.append((count, max_rss_mib())))
    start = now()
    report = evaluate_many(REGIME, QUESTION, stream, as_of=AS_OF, reform=REFORM, examples=1)
    return timed(start), report, rss


def run_traced(n: int) -> tuple[list[tuple[int, float]], float]:
    """tracemalloc current memory at the sample points, and the peak, for the first ``n`` vehicles (MiB)."""
    current: list[tuple[int, float]] = []
    tracemalloc.start()
    stream = sampled(
        synthetic_applications(n), n, lambda c: current.append((c, tracemalloc.get_traced_memory()[0]))
    )
    evaluate_many(REGIME, QUESTION, stream, as_of=AS_OF, reform=REFORM, examples=1)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return [(count, size / 2**20) for count, size in current], peak / 2**20


def report_row(n: int, rounds: int) -> None:
    """The what-if's cost against building the facts alone, on CPU time (the steady figure on a shared machine)."""
    baseline, measured = interleaved(lambda: run_baseline(n).cpu, lambda: run_bulk(n)[0].cpu, rounds)
    emit(
        Row(
            measure=f"lawcode bulk what-if, law and reform ({n:,} vehicles, CPU)",
            baseline="building the facts alone, the same loop",
            baseline_value=baseline,
            outorga_value=measured,
            unit="s",
            goal=0.1,  # the issue's "≤ 10× the facts"
        )
    )


def print_table(headers: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    widths = [max(len(headers[i]), *(len(row[i]) for row in rows)) for i in range(len(headers))]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(
            "  ".join(
                cell.rjust(w) if i else cell.ljust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            )
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--n", type=int, default=300_000, help="number of synthetic vehicles (default 300000)"
    )
    parser.add_argument("--memory-n", type=int, default=20_000, help="vehicles in the tracemalloc pass")
    parser.add_argument(
        "--rounds", type=int, default=0, help="report the make-bench row: N interleaved rounds, CPU seconds"
    )
    args = parser.parse_args(argv)
    evaluate_many(
        REGIME, QUESTION, synthetic_applications(1), as_of=AS_OF
    )  # load the regime outside the timing
    if args.rounds:
        report_row(args.n, args.rounds)
        return 0
    rss_start = max_rss_mib()
    baseline = run_baseline(args.n)
    bulk, report, rss = run_bulk(args.n)
    traced, peak = run_traced(min(args.n, args.memory_n))
    _print_results(args.n, baseline, bulk, report, rss_start, rss, traced, peak)
    return 0


def _print_results(
    n: int,
    baseline: Timing,
    bulk: Timing,
    report: BulkReport,
    rss_start: float,
    rss: list[tuple[int, float]],
    traced: list[tuple[int, float]],
    peak: float,
) -> None:
    print(f"lawcode bulk benchmark — {REGIME} / {QUESTION} on {AS_OF}, {n} synthetic vehicles (seed {SEED})")
    print(f"python {sys.version.split()[0]}\n")
    _print_speed(n, baseline, bulk)
    print_table(
        ("vehicles evaluated", "ru_maxrss MiB"),
        [("before the passes", f"{rss_start:.1f}")] + [(str(c), f"{m:.1f}") for c, m in rss],
    )
    print()
    print_table(("vehicles (tracemalloc pass)", "traced MiB"), [(str(c), f"{m:.2f}") for c, m in traced])
    print(f"tracemalloc peak: {peak:.2f} MiB\n")
    print(report.summary_pt().split("\n\n", 1)[0])


def _print_speed(n: int, baseline: Timing, bulk: Timing) -> None:
    def row(name: str, timing: Timing, ratio: str) -> tuple[str, ...]:
        wall, cpu = f"{timing.wall:.2f}", f"{timing.cpu:.2f}"
        return (name, str(n), wall, cpu, f"{n / timing.wall:,.0f}", f"{n / timing.cpu:,.0f}", ratio)

    print_table(
        ("pass", "vehicles", "wall s", "cpu s", "vehicles/s", "vehicles/cpu-s", "x baseline (cpu)"),
        [
            row("baseline: build facts only", baseline, "1.0"),
            row("evaluate_many: law + reform", bulk, f"{bulk.cpu / baseline.cpu:,.0f}"),
        ],
    )
    print(f"\n(each vehicle is evaluated twice — {2 * n / bulk.cpu:,.0f} evaluations per CPU-second)\n")


if __name__ == "__main__":
    sys.exit(main())
