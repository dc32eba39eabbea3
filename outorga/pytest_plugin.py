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


# --- The local clock -------------------------------------------------------------------------------------------
# Legal dates derived from instants are taken in the municipality's time zone (America/Sao_Paulo, UTC−3): from
# 21:00 to 24:00 there the UTC date is already tomorrow, so code that takes `.date()` of a UTC instant passes
# by day and fails by night. Tests marked `local_clock` run with the clock set to noon, 23:30 and 00:30 local
# time; `--local-clock=HH:MM` (or OUTORGA_LOCAL_CLOCK) sets it for every test of a run, so any subset — or the
# whole suite — can be run at the hour that breaks it. The clock is set, not stopped: it runs on from HH:MM, so
# instants keep their order.
CLOCK_MARK = "local_clock"
CLOCK_HOURS = ("12:00", "23:30", "00:30")
CLOCK_ENV = "OUTORGA_LOCAL_CLOCK"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--local-clock",
        default=os.environ.get(CLOCK_ENV, ""),
        metavar="HH:MM",
        help="run every test with the clock set to this local (America/Sao_Paulo) time of today",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if (
        metafunc.definition.get_closest_marker(CLOCK_MARK) is None
        or "local_clock" not in metafunc.fixturenames
    ):
        return
    if metafunc.config.getoption("--local-clock"):
        return
    metafunc.parametrize("local_clock", CLOCK_HOURS, indirect=True, ids=[f"at-{h}" for h in CLOCK_HOURS])


def set_local_clock(monkeypatch: pytest.MonkeyPatch, hhmm: str) -> None:
    """Make django.utils.timezone.now() run on from HH:MM of today, local time (everything in apps/ reads
    the time through it: model auto_now fields, timezone.localdate(), the services' instants)."""
    import datetime as dt
    import zoneinfo

    from django.conf import settings
    from django.utils import timezone

    real_now = timezone.now
    zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    hour, minute = (int(part) for part in hhmm.split(":"))
    start = real_now()
    target = dt.datetime.combine(start.astimezone(zone).date(), dt.time(hour, minute), tzinfo=zone)
    offset = target - start

    def now() -> dt.datetime:
        return real_now() + offset

    monkeypatch.setattr(timezone, "now", now)


@pytest.fixture(autouse=True)
def local_clock(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The local time the test runs at ("" for the real clock); see CLOCK_MARK above."""
    hhmm = str(getattr(request, "param", "") or request.config.getoption("--local-clock") or "")
    if hhmm:
        set_local_clock(monkeypatch, hhmm)
    return hhmm
