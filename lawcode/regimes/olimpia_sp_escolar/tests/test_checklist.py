"""The regime's inspection checklist (inspection_checklist.yaml): what its items ask and cite (moved from the
engine's core tests, which now check every regime's checklist generically)."""

from __future__ import annotations

import datetime as dt

from lawcode.checklists import checklist_for

ON = dt.date(2026, 3, 2)


def test_olimpia_checks_the_tachograph_under_art_13_iv_and_ctb_136_iv() -> None:
    checklist = checklist_for("olimpia_sp_escolar")
    rendered = [c.render() for c in checklist.citations(checklist.item("tachograph"), on=ON)]
    assert "Lei 5.171/2025 (Olímpia), art. 13, IV" in rendered
    assert "CTB, art. 136, IV" in rendered


def test_permit_number_on_doors_is_not_asked_before_the_permit_exists() -> None:
    checklist = checklist_for("olimpia_sp_escolar")
    assert "permit_number_doors" not in [i.code for i in checklist.items_for("initial")]
    assert "permit_number_doors" in [i.code for i in checklist.items_for("periodic")]


def test_a_failed_vistoria_has_no_cure_window_in_this_law() -> None:
    assert checklist_for("olimpia_sp_escolar").failure_cure is None
