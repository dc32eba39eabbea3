"""Views open the municipality in their URL only through apps.tenancy.access.municipality_for.

Thirteen views modules once carried their own copy of that gate; a copy that drifts (a forgotten role check,
a 403 instead of 404) leaks which towns and roles exist. This test fails when a copy comes back.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

APPS = Path(__file__).resolve().parents[2]
# _municipality, _municipality_for, _staff_municipality: the names the copies had (views may still be called
# municipality_home and the like: those are pages, not gates).
GATE_NAME = re.compile(r"^_+(staff_)?municipality(_for)?$")


def _views_modules() -> list[Path]:
    found = {*APPS.glob("*/views.py"), *APPS.glob("*/*_views.py"), *APPS.glob("*/api/views.py")}
    return sorted(found)


def _own_municipality_gates(path: Path) -> list[str]:
    """Functions named like a municipality gate, and inline Municipality lookups through the row gate."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and GATE_NAME.match(node.name):
            problems.append(f"{path.name}:{node.lineno} def {node.name}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "get_object_for_user_or_404"
            and node.args
            and "Municipality.objects" in ast.unparse(node.args[0])
        ):
            problems.append(f"{path.name}:{node.lineno} get_object_for_user_or_404(Municipality...)")
    return problems


def test_the_scan_sees_the_views_modules() -> None:
    names = {str(path.relative_to(APPS)) for path in _views_modules()}
    assert {"registry/views.py", "portal/staff_views.py", "registry/api/views.py"} <= names


@pytest.mark.parametrize("path", _views_modules(), ids=lambda path: str(path.relative_to(APPS)))
def test_no_views_module_builds_its_own_municipality_gate(path: Path) -> None:
    assert _own_municipality_gates(path) == [], "use apps.tenancy.access.municipality_for"


def test_the_scan_catches_a_copy(tmp_path: Path) -> None:
    copy = tmp_path / "views.py"
    copy.write_text(
        "def _municipality(request, ibge_code):\n"
        "    return get_object_for_user_or_404(Municipality.objects.all(), request.user, 'view')\n",
        encoding="utf-8",
    )
    assert len(_own_municipality_gates(copy)) == 2
