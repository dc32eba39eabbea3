"""Shared helpers for the Olímpia regime tests: scenario facts and a copy of the regime folder to break."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from lawcode.regime import Regime
from lawcode.registry import load_regime

REGIME_ID = "olimpia_sp_escolar"
PACKAGE = f"lawcode.regimes.{REGIME_ID}"
FOLDER = Path(__file__).resolve().parent.parent
SCENARIOS = FOLDER / "scenarios"
# Every data file of the folder (YAML and law texts), whatever files the regime declares: the rules stay in the
# real package.
DATA_FILES = tuple(sorted(p.name for p in FOLDER.iterdir() if p.suffix in (".yaml", ".txt")))


def scenario_documents() -> list[dict[str, Any]]:
    """Every scenario file, parsed with plain YAML (anchors and merge keys resolved)."""
    return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(SCENARIOS.glob("*.yaml"))]


def scenario_case(name: str) -> dict[str, Any]:
    for document in scenario_documents():
        for case in document["cases"]:
            if case["name"] == name:
                return dict(case)
    raise LookupError(f"no scenario case named {name!r}")


def copied_regime(tmp_path: Path) -> Path:
    """A copy of the regime's data files in ``tmp_path/<regime id>`` (rules stay in the real package)."""
    target = tmp_path / REGIME_ID
    target.mkdir()
    for name in DATA_FILES:
        shutil.copy(FOLDER / name, target / name)
    return target


def load_copy(folder: Path) -> Regime:
    return load_regime(folder, PACKAGE)


def law_ids() -> list[str]:
    """Every dispositivo id of Lei 5.171/2025, in the order of the text."""
    from lawcode.registry import get_regime

    text = get_regime(REGIME_ID).main_act.text
    if text is None:
        raise AssertionError("the main act of the regime has no text")
    return text.ids()
