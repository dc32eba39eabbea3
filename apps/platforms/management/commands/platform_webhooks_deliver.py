"""Send pending status changes to every platform webhook; failures are retried later with backoff."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from apps.platforms.models import PlatformCredential
from apps.platforms.services import changes, webhooks


class Command(BaseCommand):
    help = "Entrega aos webhooks das plataformas as mudanças de situação pendentes (assinadas com HMAC)."

    def handle(self, *args: Any, **options: Any) -> None:
        now, today = timezone.now(), timezone.localdate()
        credentials = (
            PlatformCredential.objects.usable().exclude(webhook_url="").select_related("municipality")
        )
        for municipality in {c.municipality for c in credentials}:
            changes.capture(municipality, as_of=today)
        queued = sum(webhooks.enqueue(credential, now=now) for credential in credentials)
        outcome = webhooks.deliver_due(now=now)
        self.stdout.write(
            f"Enfileiradas: {queued}; entregues: {outcome.delivered}; a tentar de novo: "
            f"{outcome.retried}; desistidas: {outcome.failed}."
        )
