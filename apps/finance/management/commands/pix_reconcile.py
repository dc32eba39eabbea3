"""manage.py pix_reconcile [--days N]: read each municipality's list of received PIX at its PSP for the last
N days (default 3) and settle what the webhook missed; what does not match goes to the review queue."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from apps.finance.psp.config import psp_config
from apps.finance.reconciliation import pix_reconcile
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = "Concilia os PIX recebidos nos últimos dias com as guias (lista de PIX recebidos do banco)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=3)

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        start_day = timezone.localdate(now) - dt.timedelta(days=options["days"])
        start = timezone.make_aware(dt.datetime.combine(start_day, dt.time.min))
        errors = []
        for municipality in Municipality.objects.order_by("ibge_code"):
            if psp_config(municipality.ibge_code) is None:
                continue
            tally = pix_reconcile(
                municipality=municipality, start=start, end=now, as_of=timezone.localdate(now)
            )
            self.stdout.write(
                f"{municipality.name}: {tally.received} PIX lidos, {tally.settled} baixados agora, "
                f"{tally.review} para conferência, {tally.repeated} já conhecidos, {tally.ignored} de outras receitas."
            )
            errors += [f"{municipality.name}: {error}" for error in tally.errors]
        if errors:
            raise CommandError("; ".join(errors))
