"""The merged parameter set is memoized per Config content: the apps build an equal Config per question."""

from __future__ import annotations

import pytest

import lawcode
from lawcode.config import Config
from lawcode.errors import UnknownInterpretationError

UFM = {"ufm": [{"from": "2026-01-01", "value": "5.45", "cite": "art8", "note": "Decreto 1/2026"}]}


def test_equal_configs_share_one_merge_and_a_different_value_gets_its_own() -> None:
    regime = lawcode.get_regime("patrocinio_mg_aplicativo")
    first = regime.parameters_with(Config.from_dict({"parameters": UFM}))
    again = regime.parameters_with(Config.from_dict({"parameters": UFM}))
    assert again is first
    other = {"ufm": [{**UFM["ufm"][0], "value": "5.60"}]}
    changed = regime.parameters_with(Config.from_dict({"parameters": other}))
    assert changed is not first and str(changed["ufm"].values[-1].value) == "5.60"
    assert (
        str(regime.parameters_with(Config.from_dict({"parameters": UFM}))["ufm"].values[-1].value) == "5.45"
    )


def test_a_bad_choice_is_refused_every_time_never_cached() -> None:
    regime = lawcode.get_regime("olimpia_sp_escolar")
    for _ in range(2):
        with pytest.raises(UnknownInterpretationError):
            regime.parameters_with(
                Config.from_dict({"interpretations": {"INT-OLI-RECIDIVISM-ANCHOR": "nope"}})
            )
