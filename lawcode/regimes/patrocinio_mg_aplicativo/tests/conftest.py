"""Fixtures for the Patrocínio regime tests: the loaded regime and editable copies of its folder."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.regime import Regime
from lawcode.registry import get_regime, load_regime

REGIME_ID = "patrocinio_mg_aplicativo"
FOLDER = Path(__file__).resolve().parent.parent
PACKAGE = f"lawcode.regimes.{REGIME_ID}"
AS_OF = dt.date(2026, 2, 15)


@pytest.fixture
def regime() -> Regime:
    return get_regime(REGIME_ID)


@pytest.fixture
def edited_regime(tmp_path: Path) -> Callable[[str, str, str], Regime]:
    """A copy of the regime folder with one text replaced in one file, loaded with the real rules."""

    def load(file_name: str, old: str, new: str) -> Regime:
        copy = tmp_path / REGIME_ID
        shutil.copytree(FOLDER, copy, ignore=shutil.ignore_patterns("__pycache__", "tests", "scenarios"))
        target = copy / file_name
        text = target.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur exactly once in {file_name}"
        target.write_text(text.replace(old, new), encoding="utf-8")
        return load_regime(copy, PACKAGE)

    return load
