"""The system packages the suite needs can never hide: one list (README.md), installed by CI, required by tests.

A test that needs a system command calls ``outorga.pytest_plugin.require_tools`` (which fails, not skips, when the
whole suite runs); these checks keep every such need in README.md's system-packages table, which ``.ci/run``
installs from and ``make test`` checks before it starts.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEST_ROOTS = [ROOT / "tests", ROOT / "apps", ROOT / "lawcode", ROOT / "outorga"]
# The browser fixture finds Chromium by its configured path (CHROMIUM=...), not by a Debian package name.
WHICH_ALLOWED = {ROOT / "tests" / "e2e" / "conftest.py", ROOT / "outorga" / "pytest_plugin.py"}


def readme_packages() -> set[str]:
    listed = subprocess.run(
        [str(ROOT / "tools" / "system-packages"), "list"], capture_output=True, text=True, check=True
    )
    return set(listed.stdout.split())


def scanned_test_files() -> list[Path]:
    return [
        path
        for root in TEST_ROOTS
        for path in root.rglob("*.py")
        if "tests" in path.parts or path.name.startswith("test_") or path.name == "conftest.py"
    ]


def required_packages(path: Path) -> set[str]:
    packages = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require_tools":
            for keyword in node.keywords:
                if keyword.arg == "package" and isinstance(keyword.value, ast.Constant):
                    packages.add(str(keyword.value.value))
    return packages


def test_the_readme_table_lists_the_packages() -> None:
    packages = readme_packages()
    assert {"chromium", "poppler-utils", "zbar-tools", "postgresql-client"} <= packages


def test_every_package_a_test_requires_is_in_the_readme_list() -> None:
    listed = readme_packages()
    needed = {package for path in scanned_test_files() for package in required_packages(path)}
    assert needed, "no test calls require_tools: the scan is broken"
    assert needed <= listed, f"add to README.md's system-packages table: {sorted(needed - listed)}"


def test_no_test_skips_on_a_missing_tool_by_itself() -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in scanned_test_files()
        if path not in WHICH_ALLOWED and re.search(r"shutil\.which\(", path.read_text())
    ]
    assert offenders == [], f"use outorga.pytest_plugin.require_tools instead of shutil.which: {offenders}"


def test_ci_installs_exactly_the_readme_list() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "tools/system-packages list" in ci
    assert "make test" in ci
