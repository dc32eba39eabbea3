"""The regime's inspection checklist (inspection_checklist.yaml): what its items ask and cite (moved from the
engine's core tests, which now check every regime's checklist generically)."""

from __future__ import annotations

import datetime as dt

from lawcode.checklists import checklist_for

ON = dt.date(2026, 3, 2)


def test_votuporanga_magnetic_stripe_only_on_a_temporary_vehicle() -> None:
    checklist = checklist_for("votuporanga_sp_escolar")
    assert "temporary_magnetic_stripe" in [i.code for i in checklist.items_for("temporary")]
    assert "temporary_magnetic_stripe" not in [i.code for i in checklist.items_for("semestral")]


def test_a_failed_vistoria_has_no_cure_window_in_this_law() -> None:
    assert checklist_for("votuporanga_sp_escolar").failure_cure is None
