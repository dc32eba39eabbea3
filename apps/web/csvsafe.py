"""CSV cells that a spreadsheet cannot run (CSV/formula injection, OWASP).

A cell that starts with = + - @ (or their full-width forms), a tab or a carriage return is read by Excel and
LibreOffice as a formula: a holder named `=HYPERLINK("http://…","Clique")` becomes a live link in whoever opens
the open-data file. Such text is written with a leading apostrophe, which spreadsheets show as plain text.
Only text is touched: numbers and dates are written by the callers as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")


def safe_cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_row(values: Iterable[Any]) -> list[Any]:
    return [safe_cell(value) for value in values]


def safe_dict(row: Mapping[str, Any]) -> dict[str, Any]:
    return {key: safe_cell(value) for key, value in row.items()}
