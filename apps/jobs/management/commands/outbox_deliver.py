"""manage.py outbox_deliver: send the e-mails of the outbox that are due (the worker does this by itself)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apps.jobs.services import outbox_deliver


class Command(BaseCommand):
    help = "Envia os e-mails da fila que estão no prazo; os que falham são tentados de novo mais tarde."

    def handle(self, *args: Any, **options: Any) -> None:
        outcome = outbox_deliver()
        self.stdout.write(
            f"Enviados: {outcome.sent}; a tentar de novo: {outcome.retried}; desistidos: {outcome.failed}."
        )
