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


def _copy_with_a_missing_package(tmp_path: Path) -> Path:
    """tools/system-packages beside a README whose table adds a package that is surely absent."""
    (tmp_path / "tools").mkdir()
    script = tmp_path / "tools" / "system-packages"
    script.write_text((ROOT / "tools" / "system-packages").read_text())
    script.chmod(0o755)
    readme = (ROOT / "README.md").read_text()
    readme = readme.replace(
        "<!-- system-packages:end",
        "| outorga-no-such-package | run | /nonexistent/outorga-probe |\n<!-- system-packages:end",
    )
    (tmp_path / "README.md").write_text(readme)
    return script


def test_the_install_everything_line_of_the_readme_installs_only_what_is_missing(tmp_path: Path) -> None:
    # A package already present (e.g. NodeSource's nodejs, which conflicts with Debian's npm) is never asked for.
    assert "sudo apt-get install $(tools/system-packages missing)" in (ROOT / "README.md").read_text()
    script = _copy_with_a_missing_package(tmp_path)
    missing = subprocess.run([str(script), "missing", "run"], capture_output=True, text=True, check=True)
    assert "outorga-no-such-package" in missing.stdout.split()
    assert "python3" not in missing.stdout.split()


def test_make_offers_to_install_only_on_a_terminal(tmp_path: Path) -> None:
    # Without a terminal (CI, a pipe) nothing is installed and nothing is asked: the check fails with the command.
    script = _copy_with_a_missing_package(tmp_path)
    offered = subprocess.run(
        [str(script), "offer", "run"], capture_output=True, text=True, stdin=subprocess.DEVNULL
    )
    assert offered.returncode == 1
    assert "sudo apt-get install outorga-no-such-package" in offered.stderr
    assert "[s/N]" not in offered.stdout + offered.stderr
    makefile = (ROOT / "Makefile").read_text()
    assert "tools/system-packages offer run test" in makefile
    assert "tools/system-packages offer run\n" in makefile


def test_ci_runs_both_suites_and_holds_its_time_budget() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test-pg" in ci and "make lint" in ci
    assert "CI_BUDGET_SECONDS:-3600" in ci
    assert "Stage times" in ci
