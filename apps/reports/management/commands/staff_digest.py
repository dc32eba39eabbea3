"""manage.py staff_digest [--as-of YYYY-MM-DD]: queue today's digest of deadlines at risk for each staff member
(apps/reports/services/digest.py); safe to run twice a day (one digest per person per day)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from apps.reports.services.digest import staff_digest_send


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--as-of: data inválida {text!r}; use AAAA-MM-DD.") from None


class Command(BaseCommand):
    help = "Resumo diário da equipe: um e-mail por servidor com os prazos legais em risco do seu papel."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--as-of", type=_date, default=None, help="Data de referência (padrão: hoje).")

    def handle(self, *args: Any, **options: Any) -> None:
        as_of: dt.date = options["as_of"] or timezone.localdate()
        outcome = staff_digest_send(as_of=as_of)
        self.stdout.write(
            f"Digests queued: {outcome.sent}; already sent today: {outcome.already_sent}; "
            f"nothing at risk: {outcome.nothing_at_risk}"
        )
