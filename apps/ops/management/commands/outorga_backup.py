"""manage.py outorga_backup FOLDER: the database, the local files and the audit checkpoints, in one folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.ops.backup import BackupError, backup


class Command(BaseCommand):
    help = (
        "Back up the database (pg_dump or the SQLite backup API), the local file store and the audit "
        "checkpoints into a new FOLDER with a manifest. The audit HMAC keys are NOT included: keep them apart."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folder", type=Path, help="a folder that does not exist yet")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            manifest = backup(options["folder"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        files = (
            "files in the S3 bucket are not copied (use its versioning)"
            if manifest.media != "local"
            else (f"{manifest.media_files} file(s)")
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Backup written to {options['folder']}: {manifest.vendor} database ({manifest.database_file}), "
                f"{files}, {manifest.checkpoint_files} audit checkpoint(s)."
            )
        )
