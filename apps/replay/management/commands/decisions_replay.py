"""manage.py decisions_replay --municipality <IBGE>: re-evaluate every stored decision of a municipality as of
its own date with today's code, and report how many would now differ and why (finding and article)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.replay.selectors import MunicipalityReport, RowReplay, replay_municipality
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = "Re-evaluate a municipality's stored decisions as of their own dates and report the differences."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--municipality", required=True, help="IBGE code of the municipality")
        parser.add_argument("--details", action="store_true", help="list every differing decision")

    def handle(self, *args: Any, **options: Any) -> None:
        municipality = Municipality.objects.filter(ibge_code=options["municipality"]).first()
        if municipality is None:
            raise CommandError(f"No municipality with IBGE code {options['municipality']!r}.")
        report = replay_municipality(municipality)
        self._summary(municipality, report)
        if options["details"]:
            for item in report.differing:
                self._detail(item)
        for item in report.failed:
            self.stdout.write(f"  could not replay {_name(item)}: {item.replay.error}")

    def _summary(self, municipality: Municipality, report: MunicipalityReport) -> None:
        same = report.total - len(report.differing) - len(report.failed)
        self.stdout.write(
            f"{municipality.ibge_code} {municipality}: {report.total} stored decisions replayed; "
            f"{len(report.differing)} would now differ ({report.outcome_changed} with another outcome), "
            f"{same} unchanged, {len(report.failed)} could not be replayed."
        )
        if report.reasons:
            self.stdout.write("Why (finding or point, with its article), by number of decisions:")
            for reason, count in report.reasons.most_common():
                self.stdout.write(f"  {count:5d}  {reason}")

    def _detail(self, item: RowReplay) -> None:
        self.stdout.write(f"- {_name(item)}")
        for difference in item.replay.differences:
            self.stdout.write(f"    {difference.reason}: {difference.before} -> {difference.after}")


def _name(item: RowReplay) -> str:
    stored = item.replay.stored
    part = f" [{item.name}]" if item.name else ""
    return f"{item.source.label} #{item.pk}{part} ({stored.get('question')} as of {stored.get('as_of')})"
