"""Backups that have been restored: seed an installation with the demo data, back it up (pg_dump on PostgreSQL,
the SQLite backup API on SQLite), restore it into a new, empty database and file store, and prove the audit
chains verify against their checkpoints and every file matches its SHA-256 (docs/operations.md).

Each step runs ``manage.py`` in its own process with its own environment, as the IT team would. The
PostgreSQL case needs DATABASE_URL on PostgreSQL and pg_dump/pg_restore; without them it is skipped.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from outorga.pytest_plugin import require_tools

BASE_DIR = Path(__file__).resolve().parent.parent
# One key for both installations: the keys travel apart from the backup, as they must in production.
AUDIT_KEYS = "backup-test:" + "k" * 40
SIDES = ("original", "restored")


@dataclass(frozen=True)
class Installation:
    env: dict[str, str]
    media: Path

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )

    def ok(self, *args: str) -> str:
        result = self.manage(*args)
        assert result.returncode == 0, f"manage.py {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
        return result.stdout


def _installation(tmp_path: Path, name: str, database_url: str, **extra: str) -> Installation:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_", "STORAGE_S3"))}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="1",  # the demo seeder refuses production
        MEDIA_ROOT=str(tmp_path / name / "media"),
        AUDIT_CHECKPOINT_DIR=str(tmp_path / name / "checkpoints"),
        AUDIT_HMAC_KEYS=AUDIT_KEYS,
        **extra,
    )
    return Installation(env, tmp_path / name / "media")


def _postgres_server() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs DATABASE_URL on PostgreSQL (make test-pg)")
    require_tools("pg_dump", "pg_restore", package="postgresql-client")
    return url.rsplit("/", 1)[0]


@pytest.fixture(params=["sqlite", "postgresql"])
def database_urls(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two new, empty databases of the same engine: the original and the one it is restored into."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'original.sqlite3'}", f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    server = _postgres_server()
    names = [f"outorga_backup_{uuid.uuid4().hex[:12]}_{side}" for side in ("original", "restored")]
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{names[0]}", f"{server}/{names[1]}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_backup_restores_into_a_new_database_with_its_chains_and_files_intact(
    tmp_path: Path, database_urls: tuple[str, str]
) -> None:
    original = _installation(tmp_path, "original", database_urls[0])
    original.ok("migrate", "--no-input", "--verbosity=0")
    original.ok("createcachetable")  # as `make migrate` and deploy/install.sh do
    original.ok("seed_demo")
    original.ok("audit_anchor")
    stored = original.ok("storage_verify")
    assert " stored files match their SHA-256." in stored and not stored.startswith("0 ")
    original.ok("outorga_backup", str(tmp_path / "backup"))

    restored = _installation(tmp_path, "restored", database_urls[1])
    output = restored.ok("outorga_restore", str(tmp_path / "backup"))
    assert "OK:" in output and "checkpointed up to seq" in output
    assert stored.strip() in output  # the same number of files, all matching
    assert "Restore verified" in output

    # The checks can fail: a file changed after the restore, and a second restore over the first, are refused.
    victim = next(path for path in sorted(restored.media.rglob("*")) if path.is_file())
    victim.write_bytes(victim.read_bytes() + b"\n")
    broken = restored.manage("storage_verify")
    assert broken.returncode == 1 and "SHA-256 mismatch" in broken.stdout
    again = restored.manage("outorga_restore", str(tmp_path / "backup"))
    assert again.returncode == 1 and "the database is not empty" in again.stderr


def test_a_damaged_backup_is_refused_before_anything_is_restored(tmp_path: Path) -> None:
    original = _installation(tmp_path, "original", f"sqlite:///{tmp_path / 'original.sqlite3'}")
    original.ok("migrate", "--no-input", "--verbosity=0")
    original.ok("createcachetable")  # as `make migrate` and deploy/install.sh do
    original.ok("outorga_backup", str(tmp_path / "backup"))
    dump = tmp_path / "backup" / "database.sqlite3"
    dump.write_bytes(dump.read_bytes()[:-10])
    restored = _installation(tmp_path, "restored", f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    result = restored.manage("outorga_restore", str(tmp_path / "backup"))
    assert result.returncode == 1 and "the backup is damaged" in result.stderr
    assert not restored.media.exists()


def test_with_s3_the_restored_database_finds_its_files_in_the_bucket(tmp_path: Path, s3_storage: Any) -> None:
    """The files stay in the (versioned, replicated) bucket; the restored rows must still match them."""
    urls = (f"sqlite:///{tmp_path / 'original.sqlite3'}", f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    bucket = {
        "STORAGE_S3_BUCKET": s3_storage.bucket_name,
        "STORAGE_S3_ENDPOINT_URL": s3_storage.endpoint_url,
        "STORAGE_S3_REGION": "us-east-1",
        "STORAGE_S3_ACCESS_KEY_ID": "testing",
        "STORAGE_S3_SECRET_ACCESS_KEY": "testing",
    }
    original, restored = (
        _installation(tmp_path, side, url, **bucket) for side, url in zip(SIDES, urls, strict=True)
    )
    original.ok("migrate", "--no-input", "--verbosity=0")
    original.ok("createcachetable")  # as `make migrate` and deploy/install.sh do
    original.ok("seed_demo")
    stored = original.ok("storage_verify")
    assert not stored.startswith("0 ") and not original.media.exists()  # nothing on the local disk
    assert "S3 bucket are not copied" in original.ok("outorga_backup", str(tmp_path / "backup"))
    output = restored.ok("outorga_restore", str(tmp_path / "backup"))
    assert stored.strip() in output and "Restore verified" in output
    first = next(iter(s3_storage.bucket.objects.all()))
    first.delete()
    broken = restored.manage("storage_verify")
    assert broken.returncode == 1 and f"{first.key}: missing" in broken.stdout
