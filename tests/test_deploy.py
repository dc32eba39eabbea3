"""deploy/install.sh into a temporary prefix, the units it writes checked by systemd, and the three started.

No deployment file ships untested: the script runs end to end (code, configuration, migrations on SQLite,
`check --deploy`), `systemd-analyze verify` reads the three units, and the web, worker and scheduler are started
with the ExecStart line and environment file of their installed unit. The scheduler queues the minute's e-mail
job, the worker runs it, and the web server answers its readiness check.
"""

from __future__ import annotations

import os
import pwd
import re
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from outorga.pytest_plugin import require_tools

ROOT = Path(__file__).resolve().parent.parent
UNITS = ("web", "worker", "scheduler")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prefix = tmp_path_factory.mktemp("prefix")
    user = pwd.getpwuid(os.getuid()).pw_name
    install(prefix, user)
    return prefix


def install(prefix: Path, user: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [
            "bash",
            str(ROOT / "deploy" / "install.sh"),
            "--prefix",
            str(prefix),
            "--venv",
            str(ROOT / ".venv"),
            "--user",
            user,
            "--host",
            "outorga.exemplo.sp.gov.br",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env=clean_env(),
    )
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_env() -> dict[str, str]:
    """The machine's environment without this test run's settings (the script must not depend on them)."""
    drop = ("DATABASE", "DEBUG", "SECRET_KEY", "AUDIT_", "ALLOWED_HOSTS", "PYTEST", "DJANGO_")
    return {key: value for key, value in os.environ.items() if not key.startswith(drop)}


def env_file(prefix: Path) -> dict[str, str]:
    lines = (prefix / "etc/outorga/outorga.env").read_text().splitlines()
    pairs = (line.split("=", 1) for line in lines if line and not line.startswith("#"))
    return {key: value for key, value in pairs}


def unit(prefix: Path, name: str) -> dict[str, str]:
    text = (prefix / f"etc/systemd/system/outorga-{name}.service").read_text()
    return dict(re.findall(r"^(\w+)=(.*)$", text, re.M))


def test_the_script_writes_a_production_configuration_once(installed: Path) -> None:
    config = env_file(installed)
    assert config["DEBUG"] == "0" and config["ALLOWED_HOSTS"] == "outorga.exemplo.sp.gov.br"
    assert len(config["SECRET_KEY"]) >= 50 and len(config["METRICS_TOKEN"]) >= 50
    keys = installed / "etc/outorga/audit.keys"
    assert re.fullmatch(r"k\d{8}:\S{60,}\n", keys.read_text())
    for path in (keys, installed / "etc/outorga/outorga.env"):
        assert path.stat().st_mode & 0o777 == 0o640  # readable by the service's group, not by everyone
    assert config["DATABASE_URL"] == f"sqlite:///{installed}/var/lib/outorga/outorga.sqlite3"
    assert (installed / "opt/outorga/staticfiles/vendor").is_dir()
    assert not (installed / "opt/outorga/.git").exists() and not (installed / "opt/outorga/var").exists()
    # Run again (an update): the keys and the configuration are kept, not regenerated.
    before = (keys.read_text(), config)
    install(installed, pwd.getpwuid(os.getuid()).pw_name)
    assert (keys.read_text(), env_file(installed)) == before


def test_systemd_accepts_the_units(installed: Path) -> None:
    require_tools("systemd-analyze", package="systemd")
    paths = [str(installed / f"etc/systemd/system/outorga-{name}.service") for name in UNITS]
    done = subprocess.run(["systemd-analyze", "verify", *paths], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Running:
    bind: str
    processes: dict[str, subprocess.Popen[bytes]]


@pytest.fixture
def services(installed: Path) -> Iterator[Running]:
    """The three units' ExecStart lines, run as systemd would: WorkingDirectory, EnvironmentFile, ${VAR}."""
    config = {**env_file(installed), "OUTORGA_BIND": f"127.0.0.1:{free_port()}", "OUTORGA_WEB_WORKERS": "1"}
    started: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for name in UNITS:
            spec = unit(installed, name)
            command = re.sub(r"\$\{(\w+)\}", lambda m: config[m[1]], spec["ExecStart"]).split()
            started[name] = subprocess.Popen(
                command,
                cwd=spec["WorkingDirectory"],
                env={"PATH": os.environ["PATH"], **config},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
        yield Running(config["OUTORGA_BIND"], started)
    finally:
        for process in started.values():
            os.killpg(process.pid, signal.SIGTERM)
        for process in started.values():
            process.wait(timeout=60)


def wait_for(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return True
        except (OSError, sqlite3.Error):
            pass
        time.sleep(0.5)
    return False


def test_the_installed_services_start_and_work_together(installed: Path, services: Running) -> None:
    bind = services.bind

    def ready() -> bool:
        request = urllib.request.Request(
            f"http://{bind}/saude/pronto/",
            headers={"Host": "outorga.exemplo.sp.gov.br", "X-Forwarded-Proto": "https"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 (a local URL)
            return response.status == 200 and b'"status": "ok"' in response.read()

    def mail_job_done() -> bool:
        database = installed / "var/lib/outorga/outorga.sqlite3"
        with sqlite3.connect(database) as connection:
            row = connection.execute("SELECT status FROM jobs_jobrun WHERE job = 'mail_outbox'").fetchone()
        return row is not None and row[0] == "done"

    assert wait_for(ready, 90), "the web unit did not answer /saude/pronto/"
    assert wait_for(mail_job_done, 120), "the scheduler unit queued no job, or the worker unit did not run it"
    assert all(process.poll() is None for process in services.processes.values()), "a service exited"
