"""docs/models/ is generated from the code (tools/model_docs.py): it cannot drift, and the scan behind its
"written by" and "set by" columns really finds the writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.apps import apps
from django.db.models import Model

from apps.enforcement.models import InfractionCase
from apps.licensing.models import Permit, Reminder
from tools import model_docs

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "regenerate with `.venv/bin/python tools/model_docs.py` and commit docs/models/"


def _project_models() -> list[type[Model]]:
    return [m for m in apps.get_models() if m.__module__.startswith("apps.")]


def test_docs_models_are_what_the_code_generates(tmp_path: Path) -> None:
    model_docs.write(tmp_path)
    generated = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.md")}
    committed = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "models").glob("*.md")}
    assert sorted(committed) == sorted(generated), REGENERATE
    stale = [name for name in sorted(generated) if generated[name] != committed[name]]
    assert not stale, f"docs/models/ differs from the code in {stale}: {REGENERATE}"


def test_every_app_with_models_has_a_page_and_every_model_a_section() -> None:
    pages = model_docs.pages()
    for model in _project_models():
        page = pages[f"{model._meta.app_label}.md"]
        assert f"## `{model.__name__}` — {model._meta.verbose_name}" in page
        assert f"[{model._meta.app_label}.md]" in pages["README.md"]


@pytest.mark.parametrize("model", _project_models(), ids=lambda m: m._meta.label)
def test_every_model_says_what_it_represents(model: type[Model]) -> None:
    """Django writes "Model(id, field, ...)" as the docstring of a class without one: that explains nothing."""
    assert model_docs._docstring(model), f"{model._meta.label} has no docstring in {model.__module__}"


def test_the_scan_finds_manager_writes_saves_and_raw_sql() -> None:
    writes = model_docs.scan()
    assert "permit_suspend" in {w.name for w in writes.writers[Permit]}
    # reminders are inserted with one SQL statement per sweep, not through the ORM
    assert writes.writers[Reminder], "the raw INSERT of reminders is not seen"


def test_the_scan_credits_each_state_value_to_the_function_that_sets_it() -> None:
    states = model_docs.scan().states
    assert "permit_suspend" in {w.name for w in states[(Permit, "state")]["suspended"]}
    assert "permit_revoke" in {w.name for w in states[(Permit, "state")]["revoked"]}
    assert "permit_suspend" not in {w.name for w in states[(Permit, "state")]["revoked"]}
    # a value handed to another app's service (case_move(state=...)) is credited to the caller, through it
    final = states[(InfractionCase, "state")]["final"]
    assert any(w.via for w in final), final
