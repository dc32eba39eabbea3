"""A notification: one event told to one holder (autorizatário) or one of its people (a driver, an attendant)."""

from __future__ import annotations

from django.db import models

from apps.jobs.choices import MailStatus
from apps.notifications.choices import DeliveryState, NotificationKind
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class NotificationQuerySet(MunicipalityScopedQuerySet["Notification"]):
    def unread(self) -> NotificationQuerySet:
        return self.filter(read_at__isnull=True)


class Notification(models.Model):
    """An aviso: one legal deadline or event told once to an operator (or one of its people), in the portal
    and by e-mail, with the article and the link to act; ``key`` makes it once per event."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="+", verbose_name="município"
    )
    operator = models.ForeignKey(
        "registry.Operator",
        on_delete=models.PROTECT,
        related_name="notifications",
        verbose_name="autorizatário",
    )
    # Set when the event concerns one person of the operator (a driver's document); empty: the holder.
    person = models.ForeignKey(
        "registry.Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="notifications",
        verbose_name="pessoa",
    )
    kind = models.CharField("tipo", max_length=24, choices=NotificationKind.choices)
    key = models.CharField("chave do evento", max_length=160, unique=True)
    title = models.CharField("assunto", max_length=200)
    body = models.TextField("mensagem")
    article = models.CharField("fundamento legal", max_length=500, blank=True)
    link = models.CharField("onde agir", max_length=300)
    due_on = models.DateField("prazo", null=True, blank=True)
    recipient = models.EmailField("e-mail do destinatário", blank=True)
    mail = models.ForeignKey(
        "jobs.OutboundMail",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="e-mail",
    )
    with_reminder = models.BooleanField("e-mail enviado pelo lembrete", default=False)
    created_at = models.DateTimeField("criado em", auto_now_add=True)
    read_at = models.DateTimeField("lido em", null=True, blank=True)

    objects = NotificationQuerySet.as_manager()

    class Meta:
        verbose_name = "aviso"
        verbose_name_plural = "avisos"
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["operator", "read_at"], name="notification_unread_idx")]

    def __str__(self) -> str:
        return self.title

    @property
    def delivery(self) -> str:
        """The e-mail's state in words, for the staff list."""
        if self.with_reminder:
            return DeliveryState.WITH_REMINDER.label
        if self.mail is None:
            return DeliveryState.NO_ADDRESS.label
        return {
            MailStatus.PENDING: DeliveryState.QUEUED.label,
            MailStatus.SENT: DeliveryState.SENT.label,
            MailStatus.FAILED: DeliveryState.FAILED.label,
        }[MailStatus(self.mail.status)]
