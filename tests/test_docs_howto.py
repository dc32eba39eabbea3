"""docs/howto.md's file anchors are true: every `path::name` names a file that exists and a function, class,
assignment or YAML key of that name in it; and a `model_label="app.model"` written in any doc names a real model.
Without this the task-oriented guide drifts the first time a function is renamed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.apps import apps as django_apps

ROOT = Path(__file__).resolve().parents[1]
ANCHOR = re.compile(r"`([\w./-]+)::(\w+)`")
MODEL_LABEL = re.compile(r'model_label="([\w]+)\.([\w]+)"')


def _anchors() -> list[tuple[str, str]]:
    return ANCHOR.findall((ROOT / "docs" / "howto.md").read_text(encoding="utf-8"))


def _defines(path: Path, name: str) -> bool:
    if path.suffix in {".yaml", ".yml"}:
        return (
            re.search(rf"^\s*{re.escape(name)}:", path.read_text(encoding="utf-8"), re.MULTILINE) is not None
        )
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return True
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == name for target in targets):
                return True
    return False


def test_the_howto_has_anchors() -> None:
    assert len(_anchors()) >= 15, "docs/howto.md should answer with `path::name` anchors"


def test_every_howto_anchor_names_something_that_exists() -> None:
    broken = []
    for relative, name in _anchors():
        path = ROOT / relative
        if not path.is_file():
            broken.append(f"{relative} (no such file)")
        elif not _defines(path, name):
            broken.append(f"{relative}::{name} (not defined there)")
    assert broken == [], f"docs/howto.md points at what is gone: {broken}"


def test_every_model_label_in_the_docs_is_a_real_model() -> None:
    wrong = []
    for page in (ROOT / "docs").rglob("*.md"):
        for app_label, model in MODEL_LABEL.findall(page.read_text(encoding="utf-8")):
            try:
                django_apps.get_model(app_label, model)
            except LookupError:
                wrong.append(f"{page.relative_to(ROOT)}: {app_label}.{model}")
    assert wrong == []
