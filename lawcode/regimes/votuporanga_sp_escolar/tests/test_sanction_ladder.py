"""The penalty ladder of arts. 12–15 as a property: more prior penalties never lighten the next one."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lawcode.regime import Regime
from lawcode.registry import get_regime

from .facts_builders import infraction

ORDER = {"warning": 0, "fine": 1, "suspension_30": 2, "suspension_60": 3, "cassation": 4}
PRIORS: dict[str, dict[str, Any]] = {
    "warning": {"penalties": ["warning"]},
    "fine": {"penalties": ["fine"]},
    "suspension_30": {"penalties": ["suspension"], "suspension_days": 30},
    "suspension_60": {"penalties": ["suspension"], "suspension_days": 60},
}
AS_OF = dt.date(2026, 3, 10)


def _prior(kind: str, index: int) -> dict[str, Any]:
    final_on = dt.date(2024, 1, 1) + dt.timedelta(days=20 * index)
    return {
        "infraction_code": "VOT-9-I",
        "infraction_date": (final_on - dt.timedelta(days=10)).isoformat(),
        "final_on": final_on.isoformat(),
        **PRIORS[kind],
    }


def _step(regime: Regime, kinds: list[str]) -> int:
    history = [_prior(kind, i) for i, kind in enumerate(kinds)]
    result = regime.evaluate("sanction", infraction("VOT-10-II", "2026-03-02", history), as_of=AS_OF).result
    kind = result["penalty_kind"]
    if kind == "suspension":
        return ORDER[f"suspension_{result['suspension_days']}"]
    return ORDER[str(kind)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(PRIORS)), max_size=5), st.sampled_from(sorted(PRIORS)))
def test_adding_a_prior_never_lightens_the_penalty(kinds: list[str], extra: str) -> None:
    regime = get_regime("votuporanga_sp_escolar")
    assert _step(regime, kinds + [extra]) >= _step(regime, kinds)


def test_each_step_follows_the_highest_prior_penalty() -> None:
    regime = get_regime("votuporanga_sp_escolar")
    assert _step(regime, []) == ORDER["warning"]
    assert _step(regime, ["warning", "warning", "warning"]) == ORDER["fine"]
    assert _step(regime, ["fine", "warning"]) == ORDER["suspension_30"]
    assert _step(regime, ["suspension_30"]) == ORDER["suspension_60"]
    assert _step(regime, ["warning", "suspension_60"]) == ORDER["cassation"]
