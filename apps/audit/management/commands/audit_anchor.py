"""Anchor the audit chains outside the database.

Hourly (or by cron): a signed checkpoint of every chain's head to AUDIT_CHECKPOINT_DIR, the object-lock bucket
(apps.audit.anchorstore) when configured, and the auditors' mail. With --continuous (the scheduler runs it every
minute, apps.jobs.schedule): the same checkpoint, written only when a head moved, to the object-lock bucket (or
the directory without one) and not mailed, so deleting the newest events is detected up to a minute after they
were committed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from apps.audit.anchorstore import anchor_store
from apps.audit.checkpoints import (
    ChainHead,
    checkpoint_document,
    checkpoint_name,
    checkpoint_text,
    current_heads,
    load_checkpoints,
    write_checkpoint,
)
from apps.audit.keys import configured_keys
from apps.audit.mail import mail_checkpoint
from apps.audit.verification import all_chains, verify_chains

# The heads this process anchored last (a continuous run skips when nothing moved).
_last_heads: list[list[ChainHead]] = []


class Command(BaseCommand):
    help = (
        "Write a signed checkpoint of every audit chain's head to AUDIT_CHECKPOINT_DIR (a new file each run), "
        "the object-lock bucket AUDIT_ANCHOR_S3_BUCKET and AUDIT_CHECKPOINT_RECIPIENTS; refuses to anchor a "
        "chain that does not verify. --continuous: only when a head moved, not mailed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--checkpoints", metavar="DIR", type=Path, help="default AUDIT_CHECKPOINT_DIR")
        parser.add_argument(
            "--continuous", action="store_true", help="the minute's anchor: skip when unchanged, no mail"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        directory = options["checkpoints"] or Path(settings.AUDIT_CHECKPOINT_DIR)
        continuous = options["continuous"]
        keys = configured_keys()
        store = anchor_store()
        with transaction.atomic():  # one snapshot of every head
            heads = current_heads()
        if continuous and _last_heads and _last_heads[0] == heads:
            self.stdout.write("Nothing new to anchor.")
            return
        loaded = load_checkpoints(directory, keys=keys, store=store)
        broken = [
            r for r in verify_chains(all_chains(also=loaded.anchors), anchors=loaded.anchors) if not r.ok
        ]
        if loaded.problems or broken:
            # Signing a tampered head would make the forgery the new reference.
            names = ", ".join([r.chain for r in broken] + [p.checkpoint for p in loaded.problems])
            raise CommandError(f"Not anchoring: verification fails ({names}); run audit_verify", returncode=1)
        document = checkpoint_document(heads, keys=keys, created_at=timezone.now())
        written = []
        if store is not None:
            written.append(store.put(checkpoint_name(document), checkpoint_text(document)))
        if store is None or not continuous:
            written.append(str(write_checkpoint(directory, document)))
        _last_heads[:] = [heads]
        for head in heads:
            self.stdout.write(f"chain {head.chain}: seq {head.seq} hash {head.hash}")
        self.stdout.write(
            self.style.SUCCESS(f"Checkpoint of {len(heads)} chain(s) written to {', '.join(written)}")
        )
        recipients = list(settings.AUDIT_CHECKPOINT_RECIPIENTS)
        if recipients and not continuous:
            mail_checkpoint(Path(written[-1]), recipients)
            self.stdout.write(f"Mailed to {', '.join(recipients)}")
