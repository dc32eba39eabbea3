from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.audit.anchorstore import anchor_store
from apps.audit.checkpoints import LoadedCheckpoints, load_checkpoints
from apps.audit.keys import configured_keys
from apps.audit.models import GLOBAL_CHAIN
from apps.audit.verification import ChainReport, all_chains, verify_chains
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = (
        "Verify the audit chains (HMAC links) against the signed checkpoints; exit 1 and name the first "
        "broken link of any chain, a chain shorter than its checkpoint, or a bad checkpoint."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--municipality", metavar="IBGE", help=f"only this IBGE code (or '{GLOBAL_CHAIN}')"
        )
        parser.add_argument(
            "--checkpoints",
            metavar="DIR",
            type=Path,
            help="checkpoint directory (default AUDIT_CHECKPOINT_DIR), e.g. the copies mailed to the auditor",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        directory = options["checkpoints"] or Path(settings.AUDIT_CHECKPOINT_DIR)
        store = anchor_store()
        loaded = load_checkpoints(directory, keys=configured_keys(), store=store)
        for problem in loaded.problems:
            self.stdout.write(f"BROKEN  checkpoint {problem.checkpoint}: {problem.problem}")
        reports = verify_chains(self._chains(options["municipality"], loaded), anchors=loaded.anchors)
        for report in reports:
            self._print(report)
        if loaded.problems or any(not report.ok for report in reports):
            raise CommandError("audit chain verification FAILED", returncode=1)
        total = sum(report.events for report in reports)
        summary = f"OK: {len(reports)} chain(s), {total} event(s) verified"
        self.stdout.write(
            self.style.SUCCESS(
                f"{summary}, {loaded.files} checkpoint file(s) in {directory}"
                + (f" and {store.label}" if store is not None else "")
            )
        )

    def _chains(self, ibge_code: str | None, loaded: LoadedCheckpoints) -> list[str]:
        if ibge_code is None:
            return all_chains(also=loaded.anchors)
        if ibge_code != GLOBAL_CHAIN and not Municipality.objects.filter(ibge_code=ibge_code).exists():
            raise CommandError(f"No municipality with IBGE code {ibge_code}")
        return [ibge_code]

    def _print(self, report: ChainReport) -> None:
        if report.broken is None:
            anchored = (
                f"checkpointed up to seq {report.anchored_seq} ({report.anchored_by})"
                if report.anchored_seq is not None
                else "no checkpoint yet (run audit_anchor)"
            )
            self.stdout.write(f"OK      chain {report.chain}: {report.events} event(s), {anchored}")
            return
        link = report.broken
        where = f"event id={link.event_id} seq={link.seq}" if link.event_id is not None else f"seq={link.seq}"
        self.stdout.write(
            f"BROKEN  chain {report.chain}: {where}: {link.problem}; expected {link.expected!r}, found {link.found!r}"
        )
