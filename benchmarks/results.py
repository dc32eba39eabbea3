"""What every benchmark reports to `make bench`: rows of one table, each a measure against its baseline.

A benchmark takes its baseline and its measured run interleaved, round after round (so a load spike on the
shared machine hits both), and reports the medians: `interleaved(baseline, measured, rounds)`. It prints each
row as one line `BENCH-ROW {json}` (`emit`); benchmarks/run.py collects the lines of every script into one
table. Standalone, a script still prints its own detail.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass

PREFIX = "BENCH-ROW "


@dataclass(frozen=True)
class Row:
    measure: str
    baseline: str  # what the baseline does
    baseline_value: float
    outorga_value: float
    unit: str  # "s" (lower is better) or "req/s" (higher is better)
    goal: float | None  # the ratio the issue asks for (ratio = how Outorga compares: ≥ goal is met)

    @property
    def ratio(self) -> float:
        """Outorga as a fraction of the baseline's speed: 1.0 = as fast as the limit, 0.5 = twice as slow."""
        if self.unit == "s":
            return self.baseline_value / self.outorga_value if self.outorga_value else 0.0
        return self.outorga_value / self.baseline_value if self.baseline_value else 0.0

    @property
    def met(self) -> bool | None:
        return None if self.goal is None else self.ratio >= self.goal


def interleaved(
    baseline: Callable[[], float], measured: Callable[[], float], rounds: int
) -> tuple[float, float]:
    """Run baseline then measured `rounds` times (each returns its figure); the median of each."""
    pairs = [(baseline(), measured()) for _ in range(rounds)]
    return statistics.median(b for b, _ in pairs), statistics.median(m for _, m in pairs)


def emit(row: Row) -> None:
    print(PREFIX + json.dumps(asdict(row)), flush=True)


def parse(line: str) -> Row | None:
    return Row(**json.loads(line[len(PREFIX) :])) if line.startswith(PREFIX) else None
