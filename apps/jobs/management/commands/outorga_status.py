"""manage.py outorga_status: the health checks, the periodic jobs and the queues, for a person to read.

It lives in jobs, not ops, because it reads the jobs' tables as well as ops' checks: jobs sits above ops in the
layers (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count, Min
from django.utils import timezone

from apps.jobs.choices import MailStatus
from apps.jobs.models import OutboundMail
from apps.jobs.selectors import mail_counts, schedule_status
from apps.ops.health import run_checks
from apps.ops.models import PendingFile
from outorga.localdates import moment_text


class Command(BaseCommand):
    help = (
        "Mostra a saúde do Outorga: banco, migrações, arquivos, fila de tarefas, rotinas, e-mails e arquivos "
        "aguardando gravação."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        checks = run_checks()
        self.stdout.write("Verificações:")
        for check in checks:
            state = "FALHOU" if not check.ok else "DEGRADADO" if check.degraded else "ok"
            self.stdout.write(f"  [{state}] {check.name}: {check.detail}")
        if checks[0].ok:
            self._jobs()
        if not all(check.ok for check in checks):
            raise CommandError("Há verificações com falha (veja acima).", returncode=1)

    def _jobs(self) -> None:
        self.stdout.write("Rotinas:")
        for item in schedule_status():
            last = item.last
            when = (
                f"{moment_text(last.enqueued_at)} — {last.get_status_display()}"
                if last
                else "ainda não executada"
            )
            self.stdout.write(f"  {item.job.label} ({item.job.when.describe()}): {when}")
        counts = mail_counts(OutboundMail.objects.all())
        summary = "; ".join(f"{label}: {counts.get(value, 0)}" for value, label in MailStatus.choices)
        self.stdout.write(f"E-mails: {summary}")
        pending = PendingFile.objects.aggregate(total=Count("pk"), oldest=Min("created_at"))
        since = (
            f" (o mais antigo recebido em {timezone.localtime(pending['oldest']):%d/%m/%Y %H:%M})"
            if pending["oldest"]
            else ""
        )
        self.stdout.write(f"Arquivos aguardando gravação no armazenamento: {pending['total']}{since}")
