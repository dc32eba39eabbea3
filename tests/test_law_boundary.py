"""The boundary with the law engine (docs/architecture.md, "The boundary with the law engine"): apps.lawconfig.engine
is the only module under apps/ that asks lawcode to decide. import-linter holds who imports the gateway (only the
apps' lawbridge modules); this test holds what import-linter cannot see, the calls themselves: ``import lawcode``
is everywhere (errors, regimes, vocabulary), so ``lawcode.evaluate(...)`` anywhere else would pass it."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GATEWAY = Path("apps/lawconfig/engine.py")
# lawcode's evaluation entry points: lawcode.evaluate (lawcode.registry), Regime.evaluate, lawcode.bulk's runs.
ENTRY_POINTS = {"evaluate", "evaluate_many"}
STARTERS = {"Comparer"}  # Comparer.start(...) begins a bulk run that evaluates


def _app_modules() -> list[Path]:
    found = []
    for path in sorted((ROOT / "apps").rglob("*.py")):
        relative = path.relative_to(ROOT)
        if {"tests", "migrations"} & set(relative.parts) or relative == GATEWAY:
            continue
        found.append(relative)
    return found


def _askings(tree: ast.AST) -> list[tuple[int, str]]:
    """Lines that ask lawcode to decide: a call of an entry point on anything but the gateway, or an import of
    one from lawcode."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "lawcode":
            out += [(node.lineno, f"import {a.name}") for a in node.names if a.name in ENTRY_POINTS]
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        receiver = node.func.value
        name = receiver.id if isinstance(receiver, ast.Name) else ""
        if node.func.attr in ENTRY_POINTS and name != "engine":
            out.append((node.lineno, f"{ast.unparse(node.func)}()"))
        if node.func.attr == "start" and name in STARTERS:
            out.append((node.lineno, f"{name}.start()"))
    return out


def test_only_the_gateway_asks_lawcode_to_decide() -> None:
    offenders = [
        f"{path}:{line}: {what}"
        for path in _app_modules()
        for line, what in _askings(ast.parse((ROOT / path).read_text(encoding="utf-8")))
    ]
    assert not offenders, (
        "Ask the law through the app's lawbridge module, which asks apps.lawconfig.engine:\n"
        + "\n".join(offenders)
    )


def test_the_gateway_is_where_lawcode_is_asked() -> None:
    """The scan above looks for the right calls: the gateway itself makes them."""
    asked = {what for _, what in _askings(ast.parse((ROOT / GATEWAY).read_text(encoding="utf-8")))}
    assert asked == {"lawcode.evaluate()", "Comparer.start()"}
