"""`make bench`: run every benchmark at one scale, each on a PostgreSQL database of its own, and print ONE table
(measure, baseline, Outorga, ratio, goal, met) from the rows they report (benchmarks/results.py).

    .venv/bin/python benchmarks/run.py --scale 0.1 --rounds 3

SCALE 1 is São Paulo (300,000 vehicles); 0.1 finishes in minutes on 2 cores. A script that reports no row
(it predates the shared table) still runs, and its own output is shown above the table.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.results import Row, parse  # noqa: E402

HERE = Path(__file__).resolve().parent
PG_URL = os.environ.get("PG_URL", "postgresql://postgres@127.0.0.1:5432")
FULL = 300_000


def arguments(script: str, scale: float, rounds: int) -> list[str]:
    """Each script's own options for this scale."""
    n = max(int(FULL * scale), 10)
    return {
        "daily_sweep": ["--scale", str(scale), "--rounds", str(rounds)],
        "public_lookup": ["--scale", str(scale), "--rounds", str(rounds), "--duration", "5"],
        "roster_import": ["--rows", str(n), "--rounds", str(rounds)],
        "issuance": ["--scale", str(scale), "--rounds", str(rounds)],
        "lawcode_bulk": ["--n", str(n), "--rounds", str(rounds)],
    }.get(script, ["--scale", str(scale)])


def ensure_database(name: str) -> str:
    exists = subprocess.run(
        ["psql", f"{PG_URL}/postgres", "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not exists:
        subprocess.run(["psql", f"{PG_URL}/postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
    return f"{PG_URL}/{name}"


def run(script: Path, scale: float, rounds: int) -> list[Row]:
    url = ensure_database(f"outorga_bench_{script.stem}")
    print(f"==> {script.name} (scale {scale})", flush=True)
    command = [sys.executable, str(script), *arguments(script.stem, scale, rounds)]
    process = subprocess.run(
        command, env={**os.environ, "DATABASE_URL": url}, capture_output=True, text=True, check=False
    )
    rows = [row for line in process.stdout.splitlines() if (row := parse(line)) is not None]
    if process.returncode or not rows:
        print(process.stdout[-3000:], process.stderr[-3000:], sep="\n", flush=True)
    return rows


def table(rows: list[Row]) -> str:
    header = ("measure", "baseline", "baseline", "Outorga", "ratio", "goal", "met")
    lines = [header]
    for row in rows:
        goal = "—" if row.goal is None else f"≥ {row.goal:.2f}"
        met = "—" if row.met is None else ("yes" if row.met else "no")
        lines.append(
            (
                row.measure,
                row.baseline,
                f"{row.baseline_value:,.2f} {row.unit}",
                f"{row.outorga_value:,.2f} {row.unit}",
                f"{row.ratio:.2f}×",
                goal,
                met,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = [" | ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)) for line in lines]
    out.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=float, default=0.1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("scripts", nargs="*", help="benchmark scripts (default: every one)")
    options = parser.parse_args()
    scripts = [Path(s) for s in options.scripts] or sorted(
        p for p in HERE.glob("*.py") if p.stem not in ("run", "results")
    )
    rows = [row for script in scripts for row in run(script, options.scale, options.rounds)]
    print(
        f"\nscale {options.scale}, {options.rounds} rounds interleaved, medians; ratio = Outorga's speed / "
        "the baseline's (1.00 = the physical limit)\n"
    )
    print(table(rows))


if __name__ == "__main__":
    main()
