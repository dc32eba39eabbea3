"""docs/architecture.md tells the truth about the layout: every app under apps/ is listed there, and none that
is gone; its layer diagram is the import-linter `layers` contract of pyproject.toml (which `make lint` holds the
code to), and that contract places every app."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _apps_on_disk() -> set[str]:
    return {path.parent.name for path in (ROOT / "apps").glob("*/apps.py")}


def _architecture() -> str:
    return (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def _apps_in_layout() -> set[str]:
    layout = _architecture().split("## Layout", 1)[1].split("```", 2)[1]
    block = layout.split("\napps/", 1)[1].split("\noutorga/", 1)[0]
    return set(re.findall(r"^  ([a-z_]+)/ ", block, flags=re.MULTILINE))


def _layers_in_docs() -> list[str]:
    """The ```layers block of the "Layers" section, one layer a line, highest first."""
    section = _architecture().split("\n## Layers\n", 1)[1]
    block = section.split("```layers\n", 1)[1].split("```", 1)[0]
    return [" ".join(line.split()) for line in block.splitlines() if line.strip()]


def _layers_contract() -> list[str]:
    """The layers contract of pyproject.toml, written as the docs write it (no `apps.` prefix)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert len(contracts) == 1, "one layers contract for the apps"
    return [" ".join(layer.replace("apps.", "").split()) for layer in contracts[0]["layers"]]


def _apps_of(layers: list[str]) -> list[str]:
    return [name for layer in layers for name in re.split(r"\s*[|:]\s*", layer)]


def test_the_architecture_page_lists_every_app_and_only_real_ones() -> None:
    assert _apps_in_layout() == _apps_on_disk()


def test_the_layer_diagram_is_the_import_linter_contract() -> None:
    assert _layers_in_docs() == _layers_contract()


def test_the_layers_contract_places_every_app_once() -> None:
    placed = _apps_of(_layers_contract())
    assert sorted(placed) == sorted(set(placed)), "an app placed in two layers"
    assert set(placed) == _apps_on_disk()
