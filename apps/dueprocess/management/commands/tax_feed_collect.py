"""manage.py tax_feed_collect: append to each municipality's tax feed the fines that became dívida ativa and
what happened to the ones already fed (payment, cancellation, refund). docs/tax-feed.md."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from apps.dueprocess.services.taxfeed import tax_feed_collect
from apps.tenancy.models import Municipality


class Command(BaseCommand):
    help = "Atualiza os eventos de dívida ativa enviados ao sistema tributário (inscrições, pagamentos, cancelamentos)."

    def handle(self, *args: Any, **options: Any) -> None:
        today = timezone.localdate()
        for municipality in Municipality.objects.order_by("ibge_code"):
            added = tax_feed_collect(municipality=municipality, as_of=today)
            self.stdout.write(f"{municipality.name}: {added} evento(s) novo(s).")
