"""Benchmark of a what-if run (apps.whatif) over a synthetic municipality: records judged per second.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/outorga_bench .venv/bin/python benchmarks/whatif_run.py
    ... benchmarks/whatif_run.py --scale 0.01 --reuse --one-by-one    # the facts read one query at a time

The registry is daily_sweep.py's (same generator, same database rules: a database of its own, refused if it
holds any other municipality): at --scale s, 300,000·s PF operators in Olímpia's school-transport regime, each
with an active driver (themselves), a vehicle with its permit and four documents per person and per vehicle;
one permit in ten is linked to its application (the lawbridge path), the rest are read as a renewal; one
vehicle in five is from 2012, past the reformed age limit.

It runs ``services._evaluate`` (what the task worker runs, minus the state bookkeeping) for the change
"max_vehicle_age 15 → 10" as of AS_OF, and prints the records judged, the seconds (wall and CPU) and the queries
per chunk. ``--one-by-one`` builds each record's facts with the registry lawbridge's one-query-per-question
reads instead of the chunk's (the engine and everything else the same), for the before/after figure. Nothing
asserts.

Run on PostgreSQL at --scale 0.01 (shared 2-core machine, 02/12/2026): 5,771 records (2,771 permits in force,
3,000 drivers) in 7.1 s = 812 records/s, 1.0 ms CPU per record, 100 queries in all; the code before chunk reads
(one by one, documents prefetched per chunk) 74.6 s = 77 records/s, 9.0 ms CPU per record, 28,818 queries.
Wall clock follows the machine's load (a repeat of the chunk run: 12.0 s = 482 records/s); CPU per record is
the steady figure. No record changed outcome in these runs (totals: changed 0): they measure reading and
judging, not writing flipped rows.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import daily_sweep  # noqa: E402  (sets up Django)
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import OuterRef, Subquery  # noqa: E402
from django.db.models.functions import Mod  # noqa: E402

from apps.licensing import lawbridge  # noqa: E402
from apps.licensing.models import Application, Permit  # noqa: E402
from apps.registry import lawbridge as registry_lawbridge  # noqa: E402
from apps.registry.models import Vehicle  # noqa: E402
from apps.whatif import lawbridge as whatif_lawbridge  # noqa: E402
from apps.whatif import services  # noqa: E402
from apps.whatif.changes import ProposedChange, change_label  # noqa: E402
from apps.whatif.choices import ChangeKind  # noqa: E402
from apps.whatif.models import WhatIfOutcome, WhatIfRun  # noqa: E402

REGIME = "olimpia_sp_escolar"
CHANGE = ProposedChange(kind=ChangeKind.PARAMETER, name="max_vehicle_age", value=10)  # type: ignore[arg-type]


def prepare() -> None:
    """The generator's applications become the permits' applications (one permit in ten), and one vehicle in
    five is from 2012, past the reformed age limit."""
    first = Application.objects.filter(vehicle_id=OuterRef("vehicle_id")).order_by("pk").values("pk")[:1]
    Permit.objects.filter(application__isnull=True).update(application_id=Subquery(first))
    old = Vehicle.objects.annotate(slot=Mod("pk", 5)).filter(slot=0)
    old.update(manufacture_year=2012, model_year=2013)


def new_run() -> WhatIfRun:
    municipality = daily_sweep._municipality()
    user, _ = get_user_model().objects.get_or_create(username="whatif-benchmark")
    WhatIfOutcome.objects.filter(run__municipality=municipality).delete()
    return WhatIfRun.objects.create(
        municipality=municipality,
        regime_id=REGIME,
        requested_by=user,
        as_of=daily_sweep.AS_OF,
        change_kind=CHANGE.kind,
        change=CHANGE.to_dict(),
        change_label=change_label(REGIME, CHANGE, daily_sweep.AS_OF),
    )


def one_by_one() -> None:
    """Every chunk's reads replaced by the one-query-per-question reads."""

    def permit_reads(chunk: Any, as_of: Any) -> Any:
        return lawbridge.ONE_BY_ONE

    def driver_reads(chunk: Any, as_of: Any) -> Any:
        return registry_lawbridge.ONE_BY_ONE

    whatif_lawbridge.permit_reads = permit_reads
    whatif_lawbridge.driver_reads = driver_reads


def measure() -> dict[str, Any]:
    run = new_run()
    queries = 0

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    wall, cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(counted):
        totals = services._evaluate(run)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    judged = sum(kind.get("judged", 0) for kind in totals.values())
    return {"judged": judged, "wall": wall, "cpu": cpu, "queries": queries, "totals": totals}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, default=0.01, help="fraction of 300,000 (default 0.01)")
    parser.add_argument("--reuse", action="store_true", help="keep the rows of a previous run")
    parser.add_argument("--one-by-one", action="store_true", help="facts read one query per question")
    options = parser.parse_args()
    call_command("migrate", verbosity=0)
    n = max(int(daily_sweep.FULL_PAIRS * options.scale), 10)
    if not options.reuse:
        daily_sweep.build(n)
        prepare()
    if options.one_by_one:
        one_by_one()
    result = measure()
    judged, wall, cpu = result["judged"], result["wall"], result["cpu"]
    chunks = -(-judged // whatif_lawbridge.CHUNK)
    print(
        f"{connection.vendor}: {judged:,} records judged ({'one by one' if options.one_by_one else 'chunk'})"
    )
    print(
        f"  wall {wall:.1f} s = {judged / wall:.1f} records/s; CPU {cpu:.1f} s = {cpu / judged * 1000:.1f} ms/record"
    )
    print(
        f"  queries {result['queries']:,} = {result['queries'] / max(chunks, 1):.0f} per chunk"
        f" of {whatif_lawbridge.CHUNK}"
    )
    hours = 600_000 / (judged / wall) / 3600
    print(
        f"  300,000 vehicles (600,000 records: permits and drivers) at this rate: {hours:.2f} h of wall clock"
    )
    print(f"  totals {result['totals']}")


if __name__ == "__main__":
    main()
