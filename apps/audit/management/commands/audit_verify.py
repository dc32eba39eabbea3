from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.audit.models import GLOBAL_CHAIN
from apps.audit.verification import ChainReport, all_chains, verify_chains
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = "Verify the audit hash chains; exit 1 and name the first broken link of any chain."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--municipality", metavar="IBGE", help=f"only this IBGE code (or '{GLOBAL_CHAIN}')"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        chains = self._chains(options["municipality"])
        reports = verify_chains(chains)
        for report in reports:
            self._print(report)
        if any(not report.ok for report in reports):
            raise CommandError("audit chain verification FAILED", returncode=1)
        total = sum(report.events for report in reports)
        self.stdout.write(self.style.SUCCESS(f"OK: {len(reports)} chain(s), {total} event(s) verified"))

    def _chains(self, ibge_code: str | None) -> list[str]:
        if ibge_code is None:
            return all_chains()
        if ibge_code != GLOBAL_CHAIN and not Municipality.objects.filter(ibge_code=ibge_code).exists():
            raise CommandError(f"No municipality with IBGE code {ibge_code}")
        return [ibge_code]

    def _print(self, report: ChainReport) -> None:
        if report.broken is None:
            self.stdout.write(f"OK      chain {report.chain}: {report.events} event(s)")
            return
        link = report.broken
        self.stdout.write(
            f"BROKEN  chain {report.chain}: event id={link.event_id} seq={link.seq}: {link.problem}; "
            f"expected {link.expected!r}, found {link.found!r}"
        )
