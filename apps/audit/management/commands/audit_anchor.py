"""Anchor the audit chains outside the database: run it periodically (cron / systemd timer, e.g. hourly)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from apps.audit.checkpoints import checkpoint_document, current_heads, load_checkpoints, write_checkpoint
from apps.audit.keys import configured_keys
from apps.audit.mail import mail_checkpoint
from apps.audit.verification import all_chains, verify_chains


class Command(BaseCommand):
    help = (
        "Write a signed checkpoint of every audit chain's head to AUDIT_CHECKPOINT_DIR (a new file each run) "
        "and mail it to AUDIT_CHECKPOINT_RECIPIENTS; refuses to anchor a chain that does not verify."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--checkpoints", metavar="DIR", type=Path, help="default AUDIT_CHECKPOINT_DIR")

    def handle(self, *args: Any, **options: Any) -> None:
        directory = options["checkpoints"] or Path(settings.AUDIT_CHECKPOINT_DIR)
        keys = configured_keys()
        loaded = load_checkpoints(directory, keys=keys)
        broken = [
            r for r in verify_chains(all_chains(also=loaded.anchors), anchors=loaded.anchors) if not r.ok
        ]
        if loaded.problems or broken:
            # Signing a tampered head would make the forgery the new reference.
            names = ", ".join([r.chain for r in broken] + [p.checkpoint for p in loaded.problems])
            raise CommandError(f"Not anchoring: verification fails ({names}); run audit_verify", returncode=1)
        with transaction.atomic():  # one snapshot of every head
            heads = current_heads()
        document = checkpoint_document(heads, keys=keys, created_at=timezone.now())
        path = write_checkpoint(directory, document)
        for head in heads:
            self.stdout.write(f"chain {head.chain}: seq {head.seq} hash {head.hash}")
        self.stdout.write(self.style.SUCCESS(f"Checkpoint of {len(heads)} chain(s) written to {path}"))
        recipients = list(settings.AUDIT_CHECKPOINT_RECIPIENTS)
        if recipients:
            mail_checkpoint(path, recipients)
            self.stdout.write(f"Mailed to {', '.join(recipients)}")
