"""Function sizes of the project's own code (apps, lawcode, outorga; tests and migrations left out).

    .venv/bin/python tools/function_sizes.py [--top 10]

Prints the median and 90th percentile of lines per function (as the formatter lays them out) and the longest
ones, so "keep functions short" is a number anyone can check.
"""

from __future__ import annotations

import argparse
import ast
import statistics
from pathlib import Path

ROOTS = ("apps", "lawcode", "outorga")
SKIPPED_PARTS = {"tests", "migrations"}


def functions(root: Path) -> list[tuple[int, str]]:
    sizes = []
    for path in sorted(root.rglob("*.py")):
        if SKIPPED_PARTS & set(path.parts):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                sizes.append((node.end_lineno - node.lineno + 1, f"{path}:{node.lineno} {node.name}"))
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--top", type=int, default=10, help="how many of the longest functions to list")
    args = parser.parse_args()
    sizes = [size for root in ROOTS for size in functions(Path(root))]
    lengths = sorted(length for length, _ in sizes)
    p90 = lengths[int(0.9 * (len(lengths) - 1))]
    print(
        f"{len(lengths)} functions: median {statistics.median(lengths):g} lines, p90 {p90}, longest {lengths[-1]}"
    )
    for length, where in sorted(sizes, reverse=True)[: args.top]:
        print(f"{length:5d}  {where}")


if __name__ == "__main__":
    main()
