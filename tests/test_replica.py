"""The read-replica router against a real PostgreSQL streaming replica on localhost.

The test builds its own pair of servers in a temporary folder, so it copies nothing of the shared server: a
primary (initdb, wal_level=replica) on a free port, and a replica made from it with ``pg_basebackup -R`` on
another port, replaying the primary's WAL as a hot standby. Both run as the ``postgres`` OS user when the test
runs as root. A child process with DATABASE_URL and DATABASE_REPLICA_URL set (tests/replica_probe.py) then
observes the routing: public lookups read from the replica, other pages and transactions from the primary, a
request that wrote reads its own writes, and reads fall back to the primary — with a log line and a metric —
while the replica lags (replay paused) or is stopped.

Runs with PostgreSQL (``make test-pg``); skipped without the server binaries or the rights to run them.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def server_binaries() -> Path | None:
    """The newest installed server (Debian: /usr/lib/postgresql/<major>/bin)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return found[-1].parent if found else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    bin_dir: Path
    data: Path
    port: int
    as_postgres: bool

    def run(self, program: str, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / program), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)

    def must(self, program: str, *args: str) -> None:
        done = self.run(program, *args)
        assert done.returncode == 0, f"{program} {' '.join(args)}: {done.stdout}\n{done.stderr}"

    def start(self) -> None:
        self.must(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.data.parent / f"{self.data.name}.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


SERVER_SETTINGS = """
listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = '{sockets}'
wal_level = replica
max_wal_senders = 4
hot_standby = on
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 32MB
"""


@pytest.fixture(scope="module")
def pair() -> Iterator[tuple[Cluster, Cluster]]:
    if connection.vendor != "postgresql":
        pytest.skip("the replica test runs with PostgreSQL (make test-pg)")
    bin_dir = server_binaries()
    if bin_dir is None or not (bin_dir / "pg_basebackup").exists():
        pytest.skip("PostgreSQL server binaries not installed (apt-get install postgresql)")
    as_postgres = os.geteuid() == 0
    if as_postgres:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root without a postgres OS user to run the servers")
    root = Path(tempfile.mkdtemp(prefix="outorga-replica-"))
    if as_postgres:
        os.chown(root, owner.pw_uid, owner.pw_gid)
    primary = Cluster(bin_dir, root / "primary", free_port(), as_postgres)
    replica = Cluster(bin_dir, root / "replica", free_port(), as_postgres)
    try:
        made = primary.run(
            "initdb", "-D", str(primary.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"
        )
        if made.returncode != 0:
            pytest.skip(f"initdb cannot run here: {made.stderr.strip()[:300]}")
        with (primary.data / "postgresql.conf").open("a") as conf:
            conf.write(SERVER_SETTINGS.format(port=primary.port, sockets=root))
        primary.start()
        primary.must(
            "pg_basebackup",
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "postgres",
            "-D",
            str(replica.data),
            "-R",
            "-X",
            "stream",
            "-c",
            "fast",
        )
        with (replica.data / "postgresql.conf").open("a") as conf:
            conf.write(f"port = {replica.port}\n")
        replica.start()
        primary.must("createdb", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres", "outorga")
        yield primary, replica
    finally:
        replica.stop()
        primary.stop()
        shutil.rmtree(root, ignore_errors=True)


def child_env(primary: Cluster, replica: Cluster) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE", "PYTEST"))}
    env.update(
        DATABASE_URL=primary.url("outorga"),
        DATABASE_REPLICA_URL=replica.url("outorga"),
        REPLICA_CHECK_SECONDS="0",
        OPS_COUNTER_FLUSH_SECONDS="0",
        LOG_FORMAT="json",
        DJANGO_SETTINGS_MODULE="outorga.settings",
    )
    return env


def probe(env: dict[str, str], scenario: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "replica_probe.py"), scenario],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("PROBE ")]
    assert done.returncode == 0 and lines, f"{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return dict(json.loads(lines[-1].removeprefix("PROBE ")))


@pytest.fixture(scope="module")
def migrated(pair: tuple[Cluster, Cluster]) -> dict[str, str]:
    env = child_env(*pair)
    for command in (["migrate", "--noinput"], ["createcachetable"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command, "-v", "0"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-3000:]
    return env


def test_lookups_read_the_replica_and_fall_back_while_it_lags(migrated: dict[str, str]) -> None:
    seen = probe(migrated, "routing")
    assert seen["replicated"], "the replica never received the primary's row"
    healthy = seen["healthy_lookup"]
    assert healthy["status"] == 200 and healthy["replica"] > 0, healthy
    assert seen["untagged"]["replica"] == 0 and seen["untagged"]["default"] > 0, seen["untagged"]

    ryw = seen["ryw"]
    assert ryw["same_request_sees_it"] is True  # the write pinned the rest of the request to the primary
    assert ryw["pin_cookie"] and int(ryw["pin_seconds"]) >= 30
    assert ryw["later"] == [False, True]  # another client reads the (paused) replica; the writer does not
    assert ryw["in_transaction_alias"] == "default"

    lagging = seen["lagging"]
    assert lagging["health"] == "lagging" and lagging["lag"] > 1, lagging
    assert lagging["lookup"]["status"] == 200 and lagging["lookup"]["replica"] == 0, lagging["lookup"]
    assert any("Réplica atrasada" in line and line.startswith("WARNING") for line in lagging["log"])
    assert lagging["caught_up"] and lagging["after_resume"]["health"] == "ok"
    assert lagging["after_resume"]["lookup"]["replica"] > 0
    metrics = "\n".join(seen["metrics"])
    assert 'outorga_replica_fallbacks_total{reason="lagging"}' in metrics
    assert "outorga_replica_up 1" in metrics


def test_lookups_keep_working_when_the_replica_is_down(
    pair: tuple[Cluster, Cluster], migrated: dict[str, str]
) -> None:
    primary, replica = pair
    replica.stop()
    try:
        seen = probe(migrated, "down")
    finally:
        replica.start()
    assert seen["health"] == "unavailable"
    assert seen["lookup"]["status"] == 200 and seen["lookup"]["default"] > 0, seen["lookup"]
    assert seen["seconds"] < 10, "a stopped replica must not hold the request"
    assert any("fora do ar" in line and line.startswith("WARNING") for line in seen["log"])
    metrics = "\n".join(seen["metrics"])
    assert 'outorga_replica_fallbacks_total{reason="unavailable"}' in metrics
    assert "outorga_replica_up 0" in metrics
