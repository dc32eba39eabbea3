"""Fixtures of the Votuporanga tests: the loaded regime and copies of its folder to break on purpose."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.regime import Regime
from lawcode.registry import get_regime, load_regime

REGIME_ID = "votuporanga_sp_escolar"
FOLDER = Path(__file__).resolve().parent.parent
PACKAGE = f"lawcode.regimes.{REGIME_ID}"
# Every data file of the folder (YAML and law texts), whatever files the regime declares: the rules stay in the
# real package.
DATA_FILES = tuple(sorted(p.name for p in FOLDER.iterdir() if p.suffix in (".yaml", ".txt")))


@pytest.fixture(scope="session")
def regime() -> Regime:
    return get_regime(REGIME_ID)


@pytest.fixture
def broken_copy(tmp_path: Path) -> Callable[[str, Callable[[str], str]], Regime]:
    """Load a copy of the regime whose file ``name`` went through ``edit`` (text → text)."""

    def build(name: str, edit: Callable[[str], str]) -> Regime:
        folder = tmp_path / REGIME_ID
        folder.mkdir(exist_ok=True)
        for data_file in DATA_FILES:
            shutil.copy(FOLDER / data_file, folder / data_file)
        target = folder / name
        edited = edit(target.read_text(encoding="utf-8"))
        assert edited != target.read_text(encoding="utf-8"), f"the edit did not change {name}"
        target.write_text(edited, encoding="utf-8")
        return load_regime(folder, PACKAGE)

    return build
