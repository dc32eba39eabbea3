"""Order statistics of durations (days), as a manager reads them: the median and the 90th percentile."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[int], share: float) -> int:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the values at or below it.

    Always one of the values (a day count a person can find in the list), never an interpolation; 0 for none.
    """
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)), 1) - 1]


def median(values: Sequence[int]) -> int:
    return percentile(values, 0.5)


def p90(values: Sequence[int]) -> int:
    return percentile(values, 0.9)
