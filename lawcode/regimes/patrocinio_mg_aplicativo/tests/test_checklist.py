"""The regime's inspection checklist (inspection_checklist.yaml): what its items ask and cite (moved from the
engine's core tests, which now check every regime's checklist generically)."""

from __future__ import annotations

import datetime as dt

from lawcode.checklists import checklist_for

ON = dt.date(2026, 3, 2)


def test_a_failed_vistoria_has_a_cure_window() -> None:
    cure = checklist_for("patrocinio_mg_aplicativo").failure_cure
    assert cure is not None and cure.instance == "inspection" and cure.cite == "art9_par3"


def test_patrocinio_items_cover_art_9_i_to_iii_and_art_5() -> None:
    cited = {ref for item in checklist_for("patrocinio_mg_aplicativo").items for ref in item.cites}
    assert {"art9_incI", "art9_incII", "art9_incIII", "art4_incII_a", "art5", "art5_parun"} <= cited
