from __future__ import annotations

from typing import Any

import pytest

from apps.web.csvsafe import safe_cell, safe_dict, safe_row


@pytest.mark.parametrize("text", ["=1+1", "+55 17", "-2+3", "@SUM(A1)", "\tx", "\rx", "＝1"])
def test_text_a_spreadsheet_would_run_gets_an_apostrophe(text: str) -> None:
    assert safe_cell(text) == "'" + text


def test_plain_text_numbers_and_dates_are_written_as_they_are() -> None:
    assert safe_row(["Maria", "", 12, -5, None]) == ["Maria", "", 12, -5, None]
    assert safe_dict({"a": "ok", "b": "=x"}) == {"a": "ok", "b": "'=x"}


def test_the_roster_report_and_the_active_debt_csv_are_neutralized() -> None:
    from dataclasses import fields

    from apps.dueprocess.active_debt import DebtRow, to_csv
    from apps.platforms.models import RosterImport
    from apps.platforms.services.roster import report_csv

    formula = "=cmd|' /C calc'!A0"
    report = report_csv(
        RosterImport(rejections=[{"line": 2, "field": "nome", "code": "x", "message": formula}])
    )
    assert f";'{formula}" in report
    # Only the values' text matters to the writer; the other columns get a plain placeholder.
    values: dict[str, Any] = {field.name: "x" for field in fields(DebtRow)} | {"debtor_name": formula}
    row = DebtRow(**values)
    assert to_csv([row]).splitlines()[1].startswith(f"'{formula};")
