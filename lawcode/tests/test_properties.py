"""Properties over many dates and facts: one wording per day, deterministic replayable decisions."""

from __future__ import annotations

import datetime as dt
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from lawcode.decision import Decision
from lawcode.registry import get_regime, load_regime
from lawcode.tests.conftest import DEMO_FOLDER, DEMO_PACKAGE

DEMO = load_regime(DEMO_FOLDER, DEMO_PACKAGE)
DAYS = st.dates(min_value=dt.date(2015, 12, 22), max_value=dt.date(2035, 12, 31))


@settings(max_examples=60, deadline=None)
@given(day=DAYS)
def test_at_most_one_wording_per_day_and_original_dispositivos_always_in_force(day: dt.date) -> None:
    law = get_regime("votuporanga_sp_escolar").law_text
    for dispositivo in law.dispositivos.values():
        covering = [w for w in dispositivo.versions if w.covers(day)]
        assert len(covering) <= 1, dispositivo.id
        if dispositivo.versions[0].version_key == "original":
            assert len(covering) == 1, (dispositivo.id, day)


@settings(max_examples=60, deadline=None)
@given(
    year=st.integers(min_value=1990, max_value=2030),
    day=st.dates(min_value=dt.date(2020, 1, 10), max_value=dt.date(2030, 12, 31)),
)
def test_decisions_are_deterministic_and_replayable(year: int, day: dt.date) -> None:
    facts = {"operator": {"kind": "PF"}, "vehicle": {"manufacture_year": year}}
    first = DEMO.evaluate("vehicle_permit", facts, as_of=day)
    second = DEMO.evaluate("vehicle_permit", facts, as_of=day)
    assert first.to_dict() == second.to_dict()
    stored = json.loads(json.dumps(first.to_dict()))
    assert Decision.from_dict(stored).to_dict() == stored
    assert first.outcome == ("granted" if day.year - year <= 10 else "denied")
