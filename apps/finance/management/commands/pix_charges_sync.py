"""manage.py pix_charges_sync: push to the PSP every charge whose last attempt failed and is due again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from apps.finance.services_pix import pix_charge_sync, pix_charges_due


class Command(BaseCommand):
    help = "Envia ao banco (PSP) as cobranças PIX pendentes ou com falha a tentar de novo."

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        done = failed = 0
        for charge_id in pix_charges_due(now=now):
            charge = pix_charge_sync(charge_id=charge_id, now=now)
            done, failed = (done + 1, failed) if not charge.last_error else (done, failed + 1)
        self.stdout.write(
            f"Cobranças confirmadas pelo banco: {done}; com falha (nova tentativa agendada): {failed}."
        )
