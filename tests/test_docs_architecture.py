"""docs/architecture.md tells the truth about the layout: every app under apps/ is listed there, and none that
is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _apps_on_disk() -> set[str]:
    return {path.parent.name for path in (ROOT / "apps").glob("*/apps.py")}


def _apps_in_layout() -> set[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = text.split("## Layout", 1)[1].split("```", 2)[1]
    block = layout.split("\napps/", 1)[1].split("\noutorga/", 1)[0]
    return set(re.findall(r"^  ([a-z_]+)/ ", block, flags=re.MULTILINE))


def test_the_architecture_page_lists_every_app_and_only_real_ones() -> None:
    assert _apps_in_layout() == _apps_on_disk()
