"""The public surface is importable from ``lawcode`` and every public function and class says how to use it."""

from __future__ import annotations

import importlib
import inspect

import lawcode

CORE_MODULES = (
    "errors",
    "units",
    "texts",
    "acts",
    "citations",
    "params",
    "fiscal",
    "interpretations",
    "config",
    "facts",
    "decision",
    "context",
    "regime",
    "regime_files",
    "registry",
    "questions",
    "yamlsource",
)


def test_everything_in_all_is_importable() -> None:
    for name in lawcode.__all__:
        assert getattr(lawcode, name) is not None, name


def test_public_functions_and_classes_have_docstrings() -> None:
    missing = []
    for module_name in CORE_MODULES:
        module = importlib.import_module(f"lawcode.{module_name}")
        assert module.__doc__, module_name
        for name, item in vars(module).items():
            if name.startswith("_") or getattr(item, "__module__", None) != module.__name__:
                continue
            if (inspect.isfunction(item) or inspect.isclass(item)) and not inspect.getdoc(item):
                missing.append(f"{module_name}.{name}")
    assert missing == []


def test_evaluate_docstring_shows_an_example() -> None:
    doc = inspect.getdoc(lawcode.evaluate) or ""
    assert "lawcode.evaluate(" in doc and "explain()" in doc
