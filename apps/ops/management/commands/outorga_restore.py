"""manage.py outorga_restore FOLDER: restore a backup of outorga_backup, then prove it with the audit chain and
the files' hashes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.ops.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore a backup folder into the configured (empty) database and file store, then run audit_verify "
        "and storage_verify; exit 1 if either fails. The audit HMAC keys must be in the environment."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("folder", type=Path, help="a folder written by outorga_backup")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            manifest = restore(options["folder"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored the backup of {manifest.created_at} ({manifest.vendor}). Verifying:")
        call_command("audit_verify", stdout=self.stdout, stderr=self.stderr)
        call_command("storage_verify", stdout=self.stdout, stderr=self.stderr)
        self.stdout.write(self.style.SUCCESS("Restore verified: audit chains and stored files are intact."))
