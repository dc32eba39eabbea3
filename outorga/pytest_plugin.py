"""Pytest plugin: make "the browser tests did not run" impossible to mistake for success.

Loaded for every run through ``addopts`` in pyproject.toml. It only acts when the environment variable
OUTORGA_REQUIRE_BROWSER is "1" (``make test`` and CI set it): then a test marked ``browser`` that is
skipped counts as failed, and a run in which no browser test passed fails the session. Without the
variable (a developer running a subset by hand) it changes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Generator

import pytest

BROWSER_MARK = "browser"
REQUIRE_ENV = "OUTORGA_REQUIRE_BROWSER"


def browser_tests_required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") == "1"


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
