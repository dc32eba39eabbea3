"""manage.py storage_deliver: write to the store the committed files still waiting in the database."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from apps.ops.pending import pending_files_deliver


class Command(BaseCommand):
    help = "Grava no armazenamento os arquivos já aceitos que ainda aguardam gravação (com novas tentativas)."

    def handle(self, *args: Any, **options: Any) -> None:
        outcome = pending_files_deliver()
        self.stdout.write(f"Gravados: {outcome.stored}; para nova tentativa: {outcome.retried}")
