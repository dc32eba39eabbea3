"""Pytest plugin: make "the browser tests did not run" impossible to mistake for success.

Loaded for every run through ``addopts`` in pyproject.toml. It only acts when the environment variable
OUTORGA_REQUIRE_BROWSER is "1" (``make test`` and CI set it for the whole suite): then a test marked
``browser`` that is skipped counts as failed, a run in which no browser test passed fails the session, and
``require_tools`` fails (instead of skipping) a test whose system tool is missing. Without the variable (a
developer running a subset by hand) a missing tool skips the test and nothing else changes.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Generator

import pytest

BROWSER_MARK = "browser"
REQUIRE_ENV = "OUTORGA_REQUIRE_BROWSER"


def browser_tests_required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") == "1"


def require_tools(*commands: str, package: str) -> None:
    """Skip the calling test when a system command is missing, or fail it when the whole suite runs.

    The package is the Debian package of README.md's system-packages table that provides the commands, so the
    message says how to fix the machine. Tests never call ``shutil.which`` + ``pytest.skip`` themselves
    (tests/test_system_tools.py checks it), so a missing package can never hide as a skip in CI.
    """
    missing = [command for command in commands if shutil.which(command) is None]
    if not missing:
        return
    reason = f"{', '.join(missing)} not installed (apt-get install {package}; see README.md, Pré-requisitos)"
    if browser_tests_required():
        pytest.fail(f"System tool missing while the whole suite runs: {reason}", pytrace=False)
    pytest.skip(reason)


class BrowserRunTally:
    """Counts browser tests that really ran, so an empty or all-skipped browser run can be refused."""

    def __init__(self) -> None:
        self.passed = 0
        self.refused = False

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, pytest.TestReport, None]:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        if item.get_closest_marker(BROWSER_MARK) is None:
            return
        if report.skipped and not hasattr(report, "wasxfail"):
            report.outcome = "failed"
            report.longrepr = (
                f"Browser test skipped but {REQUIRE_ENV}=1: browser tests must run. "
                f"Skip reason: {report.longrepr!r}. Install Chromium (apt-get install chromium)."
            )
        elif report.when == "call" and report.passed:
            self.passed += 1

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if exitstatus == 0 and session.testscollected and self.passed == 0:
            self.refused = True
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.refused:
            terminalreporter.write_sep(
                "=", f"{REQUIRE_ENV}=1 but no test marked '{BROWSER_MARK}' passed in this run", red=True
            )


def pytest_configure(config: pytest.Config) -> None:
    if browser_tests_required():
        config.pluginmanager.register(BrowserRunTally(), "outorga-browser-tally")
