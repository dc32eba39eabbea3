"""The outbox of e-mails and the record of the periodic jobs.

E-mails are written here in the transaction of the change that causes them (a transactional outbox), so a
rolled-back change sends nothing and a committed one is never forgotten; the task worker delivers them and
retries with backoff. Each periodic job has one row per schedule slot (unique), so two schedulers never start
the same run twice, and a lease keeps two runs of one job from overlapping.
"""

from __future__ import annotations

from django.db import models

from apps.jobs.choices import MailStatus, RunStatus
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class OutboundMail(models.Model):
    """One e-mail in the outbox, written in the transaction of the change that causes it; the worker sends it
    and retries with backoff until it gives up."""

    municipality = models.ForeignKey(
        Municipality, null=True, blank=True, on_delete=models.PROTECT, related_name="outbound_mails"
    )
    recipient = models.EmailField("destinatário")
    subject = models.CharField("assunto", max_length=255)
    body = models.TextField("mensagem")
    reason = models.CharField(
        "motivo", max_length=80, help_text="o que gerou o e-mail, ex.: licensing.reminder"
    )
    status = models.CharField("situação", max_length=10, choices=MailStatus, default=MailStatus.PENDING)
    attempts = models.PositiveSmallIntegerField("tentativas", default=0)
    next_attempt_at = models.DateTimeField("próxima tentativa")
    claimed_until = models.DateTimeField(null=True, blank=True)
    claim_token = models.CharField(max_length=32, blank=True, default="")
    last_error = models.TextField("último erro", blank=True, default="")
    created_at = models.DateTimeField("criado em", auto_now_add=True)
    sent_at = models.DateTimeField("enviado em", null=True, blank=True)

    objects = MunicipalityScopedQuerySet.as_manager()

    class Meta:
        verbose_name = "e-mail da fila"
        verbose_name_plural = "e-mails da fila"
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="jobs_mail_due")]

    def __str__(self) -> str:
        return f"{self.subject} → {self.recipient}"


class JobRun(models.Model):
    """One run of a periodic job for one schedule slot (unique), with its outcome and output."""

    job = models.CharField("rotina", max_length=60)
    slot = models.CharField("período", max_length=40, help_text="a janela do agendamento, ex.: 2026-12-01")
    status = models.CharField("situação", max_length=10, choices=RunStatus, default=RunStatus.QUEUED)
    enqueued_at = models.DateTimeField("agendada em", auto_now_add=True)
    started_at = models.DateTimeField("início", null=True, blank=True)
    finished_at = models.DateTimeField("fim", null=True, blank=True)
    output = models.TextField("resultado", blank=True, default="")

    class Meta:
        verbose_name = "execução de rotina"
        verbose_name_plural = "execuções de rotinas"
        constraints = [models.UniqueConstraint(fields=["job", "slot"], name="jobs_run_once_per_slot")]

    def __str__(self) -> str:
        return f"{self.job} ({self.slot})"


class JobLease(models.Model):
    """At most one holder per job at a time; a crashed holder's lease expires by itself."""

    name = models.CharField(max_length=60, primary_key=True)
    holder = models.CharField(max_length=32, blank=True, default="")
    expires_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.name
