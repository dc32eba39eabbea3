"""Every regime folder is discovered, loads and validates — whatever regimes the registry holds.

These tests name no regime: adding a municipality's folder is enough for it to be checked here. What a
regime's own data says (its dates, its unknown UFM…) is tested in its folder, ``lawcode/regimes/<id>/tests``.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.config import Config
from lawcode.errors import LawNotInForceError, RegimeDefinitionError
from lawcode.regime import Regime
from lawcode.registry import REGIMES_DIR, all_regimes, get_regime, load_regime, regime_ids

from .conftest import DEMO_PACKAGE

IDS = regime_ids()
Copy = Callable[[dict[str, str]], Regime]


def test_discovers_every_folder_holding_a_regime_yaml() -> None:
    folders = sorted(p.name for p in REGIMES_DIR.iterdir() if p.is_dir() and (p / "regime.yaml").exists())
    assert folders == IDS and IDS


@pytest.mark.parametrize("regime_id", IDS)
def test_every_regime_loads_with_valid_citations(regime_id: str) -> None:
    regime = get_regime(regime_id)
    assert regime.id == regime_id
    assert regime.main_act.text is not None and regime.main_act.ids()
    for name, parameter in regime.parameters.items():
        for value in parameter.values:
            regime.citer.validate(value.cite)
        assert parameter.name == name


def test_all_regimes_is_sorted_by_id() -> None:
    assert [r.id for r in all_regimes()] == IDS


def test_unknown_regime_lists_the_known_ones() -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        get_regime(IDS[0] + "_typo")
    assert all(regime_id in error.value.message for regime_id in IDS)


@pytest.mark.parametrize("regime_id", IDS)
def test_no_question_is_answered_before_the_law_is_in_force(regime_id: str) -> None:
    regime = get_regime(regime_id)
    question = next(q for q in regime.questions() if q != "law_in_force")
    day_before = regime.in_force - dt.timedelta(days=1)
    with pytest.raises(LawNotInForceError) as error:
        regime.evaluate(question, {}, as_of=day_before)
    assert f"{regime.in_force:%d/%m/%Y}" in error.value.message_pt


# --- what docs/lawcode/new-regime.md lists as optional is optional ------------------------------------------


@pytest.fixture
def bare_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of the fixture regime without some of its files."""
    from .conftest import DEMO_FOLDER

    def build(*removed: str) -> Path:
        folder = tmp_path / "demo_sp"
        shutil.copytree(DEMO_FOLDER, folder, ignore=shutil.ignore_patterns("__pycache__"))
        for name in removed:
            (folder / name).unlink()
        return folder

    return build


def test_a_regime_without_calendar_or_municipal_holidays_loads(bare_copy: Callable[..., Path]) -> None:
    regime = load_regime(bare_copy("calendar.yaml"), DEMO_PACKAGE)
    calendar = regime.calendar_for(Config())
    assert not calendar.municipal_holidays
    assert not calendar.is_business_day(dt.date(2022, 9, 7))  # the national holidays still count


def test_a_regime_without_checklist_catalog_or_not_computable_loads(bare_copy: Callable[..., Path]) -> None:
    folder = bare_copy("catalog.yaml", "not_computable.yaml")
    assert not (folder / "inspection_checklist.yaml").exists()
    regime = load_regime(folder, DEMO_PACKAGE)
    assert regime.catalog == {} and regime.not_computable == {}


@pytest.mark.parametrize("required", ["regime.yaml", "law.txt", "procedure.yaml"])
def test_a_required_file_missing_is_a_loud_error(bare_copy: Callable[..., Path], required: str) -> None:
    with pytest.raises(RegimeDefinitionError) as error:
        load_regime(bare_copy(required), DEMO_PACKAGE)
    assert required in error.value.message
