"""Applications (requerimentos) with their timeline, permits (the instrument each law names in its labels.yaml)
with their numbering, and reminders.

Every write goes through services.py; the models only hold the invariants of one row. A permit number is
'NNNN/YYYY', sequential per municipality and year: the municipality's permit counter
(tenancy.Counter) is the row locked while a number is taken,
and the unique constraint on (municipality, year, sequence) is the last line if anything slips.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models

from apps.audit.timeline import TimelineEvent
from apps.licensing.choices import (
    ApplicationKind,
    ApplicationState,
    EventKind,
    PermitKind,
    PermitState,
    ReminderTarget,
)
from apps.licensing.querysets import ApplicationQuerySet, PermitQuerySet, ScopedQuerySet
from apps.tenancy.models import Municipality


def new_qr_token() -> str:
    """32 URL-safe characters from 24 random bytes: unguessable, and short enough for a small QR code."""
    return secrets.token_urlsafe(24)


class Application(models.Model):
    """A requerimento: what the operator asks, where it stands, and the law's last word on it."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="applications", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    number = models.CharField("número", max_length=16)
    year = models.PositiveSmallIntegerField("ano")
    sequence = models.PositiveIntegerField("sequência")
    kind = models.CharField("tipo", max_length=24, choices=ApplicationKind.choices)
    state = models.CharField("situação", max_length=24, choices=ApplicationState.choices, default="draft")
    operator = models.ForeignKey(
        "registry.Operator",
        on_delete=models.PROTECT,
        related_name="applications",
        verbose_name="autorizatário",
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="applications",
        verbose_name="veículo",
    )
    driver = models.ForeignKey(
        "registry.Driver",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="applications",
        verbose_name="condutor",
    )
    attendant = models.ForeignKey(
        "registry.Attendant",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="applications",
        verbose_name="monitor",
    )
    permit = models.ForeignKey(
        "Permit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="applications",
        verbose_name="autorização de referência",
    )
    enrolled_students = models.PositiveIntegerField("alunos matriculados", null=True, blank=True)
    carries_children_under_4_or_pcd = models.BooleanField(
        "transporta crianças menores de 4 anos ou pessoas com deficiência", null=True, blank=True
    )
    platform_notified_on = models.DateField("comunicação da plataforma em", null=True, blank=True)
    extensions = models.PositiveSmallIntegerField("prorrogações pedidas", default=0)
    requested_until = models.DateField("prazo pedido até", null=True, blank=True)
    reason = models.CharField("motivo informado", max_length=500, blank=True)
    submitted_on = models.DateField("protocolado em", null=True, blank=True)
    decided_on = models.DateField("decidido em", null=True, blank=True)
    cure_deadline = models.DateField("prazo para sanar", null=True, blank=True)
    inspection_passed_on = models.DateField("vistoria aprovada em", null=True, blank=True)
    fee_guide = models.ForeignKey(
        "finance.PaymentGuide",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="guia da taxa",
    )
    fees_forfeited = models.BooleanField("taxas perdidas", default=False)
    archived_reason = models.CharField("motivo do arquivamento", max_length=500, blank=True)
    last_decision = models.JSONField("última decisão da lei", default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="criado por",
    )
    created_at = models.DateTimeField("criado em", auto_now_add=True)
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    objects = ApplicationQuerySet.as_manager()

    class Meta:
        verbose_name = "requerimento"
        verbose_name_plural = "requerimentos"
        ordering = ["-year", "-sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "year", "sequence"], name="application_unique_number"
            ),
        ]
        indexes = [
            models.Index(fields=["municipality", "state"], name="application_state_idx"),
            models.Index(fields=["state", "cure_deadline"], name="application_cure_idx"),
        ]

    def __str__(self) -> str:
        return f"Requerimento {self.number} — {self.get_kind_display()}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "state": self.state,
            "operator_id": self.operator_id,
            "vehicle_id": self.vehicle_id,
            "driver_id": self.driver_id,
            "permit_id": self.permit_id,
            "cure_deadline": self.cure_deadline,
            "decided_on": self.decided_on,
            "outcome": self.last_decision.get("outcome", ""),
        }


class ApplicationEvent(TimelineEvent):
    """One line of an application's timeline; written by the services, never edited."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField("evento", max_length=24, choices=EventKind.choices)

    class Meta:
        verbose_name = "evento do requerimento"
        verbose_name_plural = "eventos do requerimento"
        ordering = ["at", "pk"]


class Permit(models.Model):
    """The instrument the law issues for one vehicle (or an emergency driver's special authorization)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="permits", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    number = models.CharField("número", max_length=16)
    year = models.PositiveSmallIntegerField("ano")
    sequence = models.PositiveIntegerField("sequência")
    kind = models.CharField("tipo", max_length=12, choices=PermitKind.choices, default=PermitKind.REGULAR)
    state = models.CharField(
        "situação", max_length=12, choices=PermitState.choices, default=PermitState.ACTIVE
    )
    operator = models.ForeignKey(
        "registry.Operator", on_delete=models.PROTECT, related_name="permits", verbose_name="autorizatário"
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle", on_delete=models.PROTECT, related_name="permits", verbose_name="veículo"
    )
    driver = models.ForeignKey(
        "registry.Driver",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="permits",
        verbose_name="condutor emergencial",
    )
    application = models.OneToOneField(
        Application, on_delete=models.PROTECT, null=True, blank=True, related_name="issued_permit"
    )
    replaces = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="replaced_by",
        verbose_name="substitui a autorização",
    )
    issued_on = models.DateField("emitido em")
    valid_from = models.DateField("válido de")
    valid_until = models.DateField("válido até", null=True, blank=True)
    suspended_until = models.DateField("suspenso até", null=True, blank=True)
    inspection_due_on = models.DateField("próxima vistoria até", null=True, blank=True)
    inspection_overdue = models.BooleanField("vistoria atrasada", default=False)
    closed_on = models.DateField("encerrado em", null=True, blank=True)
    closed_reason = models.CharField("motivo do encerramento", max_length=500, blank=True)
    qr_token = models.CharField("código de verificação", max_length=64, unique=True, default=new_qr_token)
    decision = models.JSONField("decisão da lei", default=dict, blank=True)
    # The last document-driven status recorded (apps.licensing.standing): what the audit trail and the platform
    # feed were told, so the next change is recorded once. Empty: regular by its documents.
    standing = models.JSONField("situação documental registrada", default=dict, blank=True)

    objects = PermitQuerySet.as_manager()

    class Meta:
        verbose_name = "autorização"
        verbose_name_plural = "autorizações"
        ordering = ["-year", "-sequence"]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "year", "sequence"], name="permit_unique_number"),
            models.CheckConstraint(
                condition=models.Q(valid_until__isnull=True)
                | models.Q(valid_until__gte=models.F("valid_from")),
                name="permit_validity_ordered",
            ),
        ]
        indexes = [
            models.Index(fields=["state", "valid_until"], name="permit_expiry_idx"),
            models.Index(fields=["state", "inspection_due_on"], name="permit_inspection_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} nº {self.number}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "kind": self.kind,
            "state": self.state,
            "operator_id": self.operator_id,
            "vehicle_id": self.vehicle_id,
            "valid_from": self.valid_from,
            "valid_until": self.valid_until,
            "suspended_until": self.suspended_until,
            "closed_on": self.closed_on,
            "inspection_due_on": self.inspection_due_on,
        }


class Reminder(models.Model):
    """An e-mail sent N days before something expires; the unique key makes the daily sweep idempotent."""

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    target = models.CharField("objeto", max_length=12, choices=ReminderTarget.choices)
    target_id = models.PositiveBigIntegerField("id do objeto")
    days_before = models.PositiveSmallIntegerField("dias antes")
    expires_on = models.DateField("vence em")
    recipient = models.EmailField("destinatário", blank=True)
    sent_on = models.DateField("enviado em")

    objects = ScopedQuerySet["Reminder"].as_manager()

    class Meta:
        verbose_name = "lembrete"
        verbose_name_plural = "lembretes"
        constraints = [
            models.UniqueConstraint(
                fields=["target", "target_id", "days_before", "expires_on"],
                name="reminder_once_per_threshold",
            )
        ]

    def __str__(self) -> str:
        return f"Lembrete de {self.days_before} dias ({self.get_target_display()} {self.target_id})"
