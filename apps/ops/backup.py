"""One installation's backup in one folder, and its restore: the database, the local file store and the audit
checkpoints (docs/operations.md, "Cópias de segurança").

- PostgreSQL is dumped with ``pg_dump --format=custom`` and restored with ``pg_restore``; SQLite is copied
  with its online backup API (consistent while the app keeps writing).
- Files on the local disk (MEDIA_ROOT) are copied; an S3 bucket is left to the object store's own
  versioning and replication (the manifest records which bucket the rows point to).
- The audit checkpoints are copied so that ``audit_verify`` can prove the restored chains were not cut short.
- The audit HMAC keys are never written into the backup: they are what makes the chain unforgeable, so they
  are kept apart (a vault), and a restore needs them in the environment, as the running app does.

``manifest.json`` records the SHA-256 of the database dump; a restore refuses a dump that does not match it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import DEFAULT_DB_ALIAS, connections

from apps.ops.storage import CHUNK_BYTES, is_s3

MANIFEST = "manifest.json"
MEDIA_DIR = "media"
CHECKPOINTS_DIR = "audit-checkpoints"
DUMPS = {"postgresql": "database.pgdump", "sqlite": "database.sqlite3"}


class BackupError(RuntimeError):
    """A backup or restore that cannot go on; the message says why, in one English sentence."""


@dataclass(frozen=True)
class Manifest:
    created_at: str
    vendor: str
    database_file: str
    database_sha256: str
    media: str  # "local" or "s3://<bucket>/<prefix>"
    media_files: int
    checkpoint_files: int

    def write(self, folder: Path) -> None:
        (folder / MANIFEST).write_text(json.dumps(self.__dict__, indent=2) + "\n", encoding="utf-8")

    @classmethod
    def read(cls, folder: Path) -> Manifest:
        try:
            return cls(**json.loads((folder / MANIFEST).read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as error:
            raise BackupError(f"{folder} has no readable {MANIFEST} ({error})") from error


def backup(folder: Path) -> Manifest:
    """Write a full backup into ``folder`` (created; it must not exist yet, so nothing is overwritten)."""
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        raise BackupError(f"{folder} already exists: choose a new folder for each backup") from None
    vendor = connections[DEFAULT_DB_ALIAS].vendor
    dump = folder / _dump_name(vendor)
    _DUMPERS[vendor](dump)
    manifest = Manifest(
        created_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        vendor=vendor,
        database_file=dump.name,
        database_sha256=file_sha256(dump),
        media=_media_location(),
        media_files=_copy_tree(Path(settings.MEDIA_ROOT), folder / MEDIA_DIR)
        if not is_s3(default_storage)
        else 0,
        checkpoint_files=_copy_tree(Path(settings.AUDIT_CHECKPOINT_DIR), folder / CHECKPOINTS_DIR),
    )
    manifest.write(folder)
    return manifest


def restore(folder: Path) -> Manifest:
    """Restore ``folder`` into the configured database (which must be empty) and file store."""
    manifest = Manifest.read(folder)
    vendor = connections[DEFAULT_DB_ALIAS].vendor
    if manifest.vendor != vendor:
        raise BackupError(f"the backup is of a {manifest.vendor} database; this installation uses {vendor}")
    dump = folder / manifest.database_file
    if not dump.is_file() or file_sha256(dump) != manifest.database_sha256:
        raise BackupError(
            f"{dump} is missing or does not match the SHA-256 in {MANIFEST}: the backup is damaged"
        )
    if connections[DEFAULT_DB_ALIAS].introspection.table_names():
        raise BackupError("the database is not empty: restore into a new, empty database")
    media = Path(settings.MEDIA_ROOT)
    if manifest.media == "local" and not is_s3(default_storage) and media.exists() and any(media.iterdir()):
        raise BackupError(f"MEDIA_ROOT {media} is not empty: restore into an empty folder")
    _RESTORERS[vendor](dump)
    if manifest.media == "local":
        _copy_tree(folder / MEDIA_DIR, media)
    _copy_tree(folder / CHECKPOINTS_DIR, Path(settings.AUDIT_CHECKPOINT_DIR))
    return manifest


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(partial(handle.read, CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _dump_name(vendor: str) -> str:
    if vendor not in DUMPS:
        raise BackupError(f"no backup procedure for a {vendor} database")
    return DUMPS[vendor]


def _media_location() -> str:
    if not is_s3(default_storage):
        return "local"
    return f"s3://{getattr(default_storage, 'bucket_name', '')}/{getattr(default_storage, 'location', '')}"


def _copy_tree(source: Path, target: Path) -> int:
    """Copy the files of ``source`` into ``target`` (created), keeping names and times; how many were copied."""
    if not source.is_dir():
        return 0
    copied = 0
    for path in sorted(source.rglob("*")):
        if path.is_file():
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination)
            copied += 1
    return copied


# --- PostgreSQL: pg_dump / pg_restore (the client tools of the server's major version or newer) ----------


def _pg_command(tool: str) -> tuple[list[str], dict[str, str]]:
    """The tool with the connection of DATABASES["default"] (password in PGPASSWORD, never in argv)."""
    executable = shutil.which(tool)
    if executable is None:
        raise BackupError(f"{tool} was not found: install the PostgreSQL client (postgresql-client)")
    db: dict[str, Any] = settings.DATABASES[DEFAULT_DB_ALIAS]
    args = [executable, "--no-password", f"--dbname={db['NAME']}"]
    for option, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if db.get(key):
            args.append(f"{option}={db[key]}")
    env = dict(os.environ)
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _run(args: list[str], env: dict[str, str]) -> None:
    result = subprocess.run(args, env=env, capture_output=True, text=True, check=False)  # noqa: S603
    if result.returncode != 0:
        raise BackupError(f"{Path(args[0]).name} failed: {result.stderr.strip() or result.returncode}")


def _pg_dump(target: Path) -> None:
    args, env = _pg_command("pg_dump")
    _run([*args, "--format=custom", "--no-owner", "--no-privileges", f"--file={target}"], env)


def _pg_restore(dump: Path) -> None:
    connections[DEFAULT_DB_ALIAS].close()  # pg_restore works on its own connection
    args, env = _pg_command("pg_restore")
    _run([*args, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", str(dump)], env)


# --- SQLite: the online backup API (a consistent copy while the app writes) --------------------------------


def _sqlite_dump(target: Path) -> None:
    source = sqlite3.connect(str(settings.DATABASES[DEFAULT_DB_ALIAS]["NAME"]))
    try:
        with sqlite3.connect(str(target)) as copy:
            source.backup(copy)
        copy.close()
    finally:
        source.close()


def _sqlite_restore(dump: Path) -> None:
    connection = connections[DEFAULT_DB_ALIAS]
    connection.close()
    source = sqlite3.connect(str(dump))
    try:
        with sqlite3.connect(str(settings.DATABASES[DEFAULT_DB_ALIAS]["NAME"])) as target:
            source.backup(target)
        target.close()
    finally:
        source.close()


_DUMPERS = {"postgresql": _pg_dump, "sqlite": _sqlite_dump}
_RESTORERS = {"postgresql": _pg_restore, "sqlite": _sqlite_restore}
