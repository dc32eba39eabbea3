"""Shared fixtures of the core tests: the tiny demo regime and copies of it to break on purpose."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from lawcode.regime import Regime
from lawcode.registry import load_regime

DEMO_FOLDER = Path(__file__).parent / "fixtures" / "core" / "demo_sp"
DEMO_PACKAGE = "lawcode.tests.fixtures.core.demo_sp"


@pytest.fixture(scope="session")
def demo() -> Regime:
    return load_regime(DEMO_FOLDER, DEMO_PACKAGE)


@pytest.fixture
def demo_copy(tmp_path: Path) -> Callable[[dict[str, str]], Regime]:
    """Load a copy of the demo regime with some files replaced: ``demo_copy({"parameters.yaml": text})``."""

    def build(replacements: dict[str, str]) -> Regime:
        folder = tmp_path / "demo_sp"
        if folder.exists():
            shutil.rmtree(folder)
        shutil.copytree(DEMO_FOLDER, folder, ignore=shutil.ignore_patterns("__pycache__"))
        for name, text in replacements.items():
            (folder / name).write_text(text, encoding="utf-8")
        return load_regime(folder, DEMO_PACKAGE)

    return build
