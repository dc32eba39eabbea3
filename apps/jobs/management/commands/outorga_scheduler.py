"""manage.py outorga_scheduler [--once]: queue the periodic jobs of apps/jobs/schedule.py when they are due.

Run one (or more: slots are unique, so two never queue the same run) beside the task worker
(``manage.py db_worker``); ``make run`` starts both.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from apps.jobs.schedule import enabled_jobs
from apps.jobs.services import schedule_tick


class Command(BaseCommand):
    help = "Agenda as rotinas periódicas (rotina diária, e-mails, webhooks, dados abertos, auditoria)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="Verifica uma vez e sai (para cron/testes).")
        parser.add_argument(
            "--interval", type=int, default=30, help="Segundos entre verificações (padrão 30)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        for job in enabled_jobs():
            self.stdout.write(f"{job.label}: {job.when.describe()} (manage.py {' '.join(job.command)})")
        while True:
            for run in schedule_tick():
                self.stdout.write(f"Agendada: {run.job} ({run.slot})")
            self.stdout.flush()
            if options["once"]:
                return
            time.sleep(options["interval"])
