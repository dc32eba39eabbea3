"""The shipped schedule of periodic jobs: what runs, when, and through which management command.

Each job is an existing ``manage.py`` command, so a job run by the scheduler and one run by hand are the same
code. The scheduler (``manage.py outorga_scheduler``) asks every job for its current *slot*: a daily job has one
slot per day once its time has passed (so a scheduler started late still runs today's job — ``make run`` sweeps
the demo at start), an interval job one slot per interval. A slot is run once: JobRun is unique on (job, slot).
``OUTORGA_JOBS_DISABLED`` (comma-separated names) switches jobs off per deployment.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone


@dataclass(frozen=True)
class Daily:
    at: dt.time

    def slot(self, now: dt.datetime) -> str | None:
        local = timezone.localtime(now)
        return local.date().isoformat() if local.time() >= self.at else None

    def describe(self) -> str:
        return f"todos os dias às {self.at:%H:%M}"


@dataclass(frozen=True)
class Every:
    minutes: int

    def slot(self, now: dt.datetime) -> str:
        local = timezone.localtime(now).replace(second=0, microsecond=0)
        start = local - dt.timedelta(minutes=(local.hour * 60 + local.minute) % self.minutes)
        return start.strftime("%Y-%m-%dT%H:%M")

    def describe(self) -> str:
        return f"a cada {self.minutes} minuto(s)"


@dataclass(frozen=True)
class Job:
    name: str
    label: str
    when: Daily | Every
    command: tuple[str, ...]
    lease_minutes: int = 60

    def slot(self, now: dt.datetime) -> str | None:
        return self.when.slot(now)


SCHEDULE: tuple[Job, ...] = (
    Job(
        "daily_sweep",
        "Rotina diária: vencimentos, prazos e lembretes",
        Daily(dt.time(1, 0)),
        ("daily_sweep", "--no-progress"),
        lease_minutes=180,
    ),
    Job("mail_outbox", "Entrega dos e-mails da fila", Every(1), ("outbox_deliver",), lease_minutes=10),
    Job(
        "platform_webhooks",
        "Entrega dos webhooks das plataformas",
        Every(5),
        ("platform_webhooks_deliver",),
        lease_minutes=10,
    ),
    # Files committed while the store was down: the task worker retries them itself; this catches a process
    # that died between a commit and its file write (apps.ops.pending).
    Job("file_writes", "Gravação dos arquivos pendentes", Every(5), ("storage_deliver",), lease_minutes=10),
    # Charges with due date at the municipalities' PSPs (apps.finance.services_pix): retries of failed calls, and
    # the daily reading of the PIX received that settles anything a webhook missed.
    Job("pix_charges", "Envio das cobranças PIX ao banco", Every(5), ("pix_charges_sync",), lease_minutes=10),
    Job("pix_reconcile", "Conciliação dos PIX recebidos", Daily(dt.time(2, 0)), ("pix_reconcile",)),
    # The tax system's incremental feed (docs/tax-feed.md); reading the feed also collects, this keeps it current.
    Job(
        "tax_feed",
        "Eventos de dívida ativa para o sistema tributário",
        Daily(dt.time(2, 30)),
        ("tax_feed_collect",),
    ),
    Job("open_data", "Exportação dos dados abertos", Daily(dt.time(3, 0)), ("export_open_data",)),
    Job("staff_digest", "Resumo diário de prazos da equipe", Daily(dt.time(5, 0)), ("staff_digest",)),
    Job("audit_verify", "Verificação da trilha de auditoria", Daily(dt.time(4, 0)), ("audit_verify",)),
    # Signed heads of the audit chains outside the database (docs/security.md): the interval bounds how many
    # recent events a deleted tail could take undetected.
    Job("audit_anchor", "Ponto de verificação da trilha de auditoria", Every(60), ("audit_anchor",)),
    # The minute's anchor (issue 28): at most a minute of newest events could vanish before a checkpoint
    # (in the object-lock bucket, apps.audit.anchorstore) records them.
    Job(
        "audit_anchor_continuous",
        "Ponto de verificação contínuo da trilha de auditoria",
        Every(1),
        ("audit_anchor", "--continuous"),
        lease_minutes=10,
    ),
)


def enabled_jobs() -> tuple[Job, ...]:
    disabled = set(getattr(settings, "OUTORGA_JOBS_DISABLED", ()))
    return tuple(job for job in SCHEDULE if job.name not in disabled)


def job_named(name: str) -> Job:
    for job in SCHEDULE:
        if job.name == name:
            return job
    raise KeyError(f"unknown job {name!r}; the schedule has {', '.join(job.name for job in SCHEDULE)}")
