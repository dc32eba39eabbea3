"""No legal date is taken from an instant in UTC: apps/ dates instants through outorga.localdates only.

A stored instant is in UTC; from 21:00 to 24:00 in São Paulo its `.date()` is already tomorrow. The patterns below
are the ways that bug was written before (issue 26); tests marked `local_clock` run at 23:30 and 00:30 local time
(outorga/pytest_plugin.py) to catch the ones a pattern cannot see.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HELPER = ROOT / "outorga" / "localdates.py"

FORBIDDEN = {
    "the date of a stored instant": re.compile(r"\b\w+_at\b(\"\])?\)?\.date\(\)|\[\"\w+_at\"\]\.date\(\)"),
    "the date of now in UTC": re.compile(r"\bnow\(\)\.date\(\)"),
    "a local date taken by hand": re.compile(r"localtime\([^()]*(\([^()]*\))?[^()]*\)\.date\(\)"),
    "a stored instant formatted in UTC": re.compile(r"\b\w+_at\b\s*:\s*%|\b\w+_at\.strftime\("),
    "the machine's date": re.compile(r"\bdate\.today\(\)|\bdatetime\.now\(\)|\butcnow\("),
    "a database date truncated in UTC": re.compile(r"\bTruncDate\("),
}


def _sources() -> list[Path]:
    files = [*ROOT.joinpath("apps").rglob("*.py"), *ROOT.joinpath("outorga").rglob("*.py")]
    return sorted(p for p in files if p != HELPER and "migrations" not in p.parts)


@pytest.mark.parametrize("kind", sorted(FORBIDDEN))
def test_it_finds_no_instant_dated_outside_the_helper(kind: str) -> None:
    pattern = FORBIDDEN[kind]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line) and not line.lstrip().startswith("#")
    ]
    assert not found, f"{kind} (use outorga.localdates):\n" + "\n".join(found)


def test_the_patterns_catch_the_bugs_they_name() -> None:
    bugs = {
        "the date of a stored instant": 'recorded = event["occurred_at"].date()',
        "the date of now in UTC": "today = timezone.now().date()",
        "a local date taken by hand": "timezone.localtime(case.occurred_at).date()",
        "a stored instant formatted in UTC": 'f"{row.confirmed_at:%d/%m/%Y}"',
        "the machine's date": "received_on = dt.date.today()",
        "a database date truncated in UTC": 'rows.annotate(day=TruncDate("occurred_at"))',
    }
    assert sorted(bugs) == sorted(FORBIDDEN)
    for kind, line in bugs.items():
        assert FORBIDDEN[kind].search(line), kind
