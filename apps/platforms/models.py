"""Ride-hailing platforms, their per-municipality API credentials, and what they exchange with the prefeitura.

A platform is one company (CNPJ) working in many municipalities; each credential binds it to exactly one
municipality, so a token can never read or write another town's rows. Only the SHA-256 of a token is stored.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from apps.platforms.choices import ChangeKind, DeliveryState, RosterImportState, SubstitutionState
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class Platform(models.Model):
    """An operadora de plataforma (ride-hailing company, Patrocínio) identified by CNPJ; it reads permit statuses
    and sends substitutions and driver rosters through its credentials."""

    name = models.CharField("nome", max_length=120)
    cnpj = models.CharField("CNPJ", max_length=14, unique=True)
    created_at = models.DateTimeField("cadastrada em", auto_now_add=True)

    class Meta:
        verbose_name = "plataforma"
        verbose_name_plural = "plataformas"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def audit_snapshot(self) -> dict[str, Any]:
        return {"name": self.name, "cnpj": self.cnpj}


class CredentialQuerySet(MunicipalityScopedQuerySet["PlatformCredential"]):
    def usable(self) -> CredentialQuerySet:
        return self.filter(revoked_at__isnull=True)


class PlatformCredential(models.Model):
    """One API token of one platform in one municipality. Revoked tokens stay, so a replay is recognised."""

    platform = models.ForeignKey(Platform, on_delete=models.PROTECT, related_name="credentials")
    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    label = models.CharField("descrição", max_length=120, blank=True)
    token_prefix = models.CharField("início do token", max_length=16)
    token_hash = models.CharField("hash do token", max_length=64, unique=True)
    webhook_url = models.URLField("URL do webhook", blank=True)
    # The HMAC key must be readable to sign deliveries; it signs, it does not authenticate the platform.
    webhook_secret = models.CharField("segredo do webhook", max_length=64, blank=True)
    webhook_cursor = models.PositiveBigIntegerField("última mudança enfileirada", default=0)
    created_at = models.DateTimeField("criado em", auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    revoked_at = models.DateTimeField("revogado em", null=True, blank=True)
    last_used_at = models.DateTimeField("último uso", null=True, blank=True)

    objects = CredentialQuerySet.as_manager()

    class Meta:
        verbose_name = "credencial de plataforma"
        verbose_name_plural = "credenciais de plataforma"
        ordering = ["platform__name", "-created_at"]

    def __str__(self) -> str:
        return f"{self.platform} em {self.municipality} ({self.token_prefix}…)"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "platform": self.platform_id,
            "municipality": self.municipality.ibge_code,
            "label": self.label,
            "token_prefix": self.token_prefix,
            "webhook_url": self.webhook_url,
            "revoked_at": self.revoked_at.isoformat() if self.revoked_at else None,
        }


class SubstitutionQuerySet(MunicipalityScopedQuerySet["SubstitutionReport"]):
    pass


class SubstitutionReport(models.Model):
    """A platform's notice that a driver swapped to a rented car for a while (Patrocínio art. 11-A)."""

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    platform = models.ForeignKey(Platform, on_delete=models.PROTECT, related_name="substitutions")
    credential = models.ForeignKey(PlatformCredential, on_delete=models.PROTECT, related_name="+")
    permit = models.ForeignKey("licensing.Permit", on_delete=models.PROTECT, related_name="+")
    driver_cpf = models.CharField("CPF do motorista", max_length=11)
    substitute_plate = models.CharField("placa do veículo locado", max_length=7)
    substitute_make_model = models.CharField("marca/modelo do veículo locado", max_length=120)
    rental_company = models.CharField("locadora", max_length=160)
    reason = models.CharField("motivo", max_length=500)
    starts_on = models.DateField("início")
    expected_end_on = models.DateField("previsão de término", null=True, blank=True)
    reported_at = models.DateTimeField("comunicada em", auto_now_add=True)
    state = models.CharField(
        "situação", max_length=16, choices=SubstitutionState.choices, default=SubstitutionState.RECEIVED
    )
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    handled_note = models.CharField("observação da secretaria", max_length=500, blank=True)

    objects = SubstitutionQuerySet.as_manager()

    class Meta:
        verbose_name = "substituição temporária de veículo"
        verbose_name_plural = "substituições temporárias de veículo"
        ordering = ["-reported_at", "-id"]
        indexes = [models.Index(fields=["municipality", "state"], name="platform_subst_state_idx")]

    def __str__(self) -> str:
        return f"Substituição {self.pk}: {self.substitute_plate}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "platform": self.platform_id,
            "permit": self.permit_id,
            "substitute_plate": self.substitute_plate,
            "rental_company": self.rental_company,
            "starts_on": self.starts_on,
            "state": self.state,
            "expected_end_on": self.expected_end_on,
            "handled_note": self.handled_note,
        }


class StatusChange(models.Model):
    """One permit status change a platform must act on. The id is the feed cursor (strictly increasing in
    commit order, because every writer holds the municipality's ChangeWatermark row lock)."""

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    permit = models.ForeignKey("licensing.Permit", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField("mudança", max_length=12, choices=ChangeKind.choices)
    effective_on = models.DateField("a partir de")
    permit_number = models.CharField("número da autorização", max_length=16)
    plate = models.CharField("placa", max_length=7)
    valid_until = models.DateField("válido até", null=True, blank=True)
    suspended_until = models.DateField("suspenso até", null=True, blank=True)
    # Why, in Portuguese with the article, for the law's own status changes (a lapsed document…).
    reason = models.TextField("motivo", blank=True)
    source_key = models.CharField("origem", max_length=40, unique=True)
    recorded_at = models.DateTimeField("registrada em", auto_now_add=True)

    class Meta:
        verbose_name = "mudança de situação"
        verbose_name_plural = "mudanças de situação"
        ordering = ["id"]
        indexes = [models.Index(fields=["municipality", "id"], name="platform_change_feed_idx")]

    def __str__(self) -> str:
        return f"{self.permit_number}: {self.get_kind_display()}"


class ChangeWatermark(models.Model):
    """How far the municipality's audit chain has been read into StatusChange; locked while capturing."""

    municipality = models.OneToOneField(Municipality, on_delete=models.PROTECT, related_name="+")
    last_audit_id = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.municipality_id}: auditoria lida até {self.last_audit_id}"


class WebhookDelivery(models.Model):
    """One status change pushed to one platform credential's webhook, retried until delivered or given up."""

    credential = models.ForeignKey(PlatformCredential, on_delete=models.PROTECT, related_name="deliveries")
    change = models.ForeignKey(StatusChange, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(max_length=12, choices=DeliveryState.choices, default=DeliveryState.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    last_error = models.CharField(max_length=300, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["credential", "change"], name="webhook_delivery_once"),
        ]
        indexes = [models.Index(fields=["state", "next_attempt_at"], name="webhook_due_idx")]

    def __str__(self) -> str:
        return f"{self.credential_id}→{self.change_id} ({self.state})"


class RosterImportQuerySet(MunicipalityScopedQuerySet["RosterImport"]):
    pass


class RosterImport(models.Model):
    """One uploaded roster file: imported whole, or rejected whole with every refused line in `rejections`.

    A file sent from the web or the API is queued and processed by the task worker; the counters below are
    its progress (read and rejected grow while the lines are checked; stored is set when the roster commits).
    """

    platform = models.ForeignKey(Platform, on_delete=models.PROTECT, related_name="imports")
    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name="enviado por",
    )
    file_name = models.CharField("arquivo", max_length=200)
    uploaded_at = models.DateTimeField("enviado em", auto_now_add=True)
    finished_at = models.DateTimeField("concluído em", null=True, blank=True)
    state = models.CharField("resultado", max_length=12, choices=RosterImportState.choices)
    expected_rows = models.PositiveIntegerField("linhas no arquivo (estimativa)", default=0)
    total_rows = models.PositiveIntegerField("linhas lidas", default=0)
    rejected_rows = models.PositiveIntegerField("linhas recusadas", default=0)
    stored_rows = models.PositiveIntegerField("linhas gravadas", default=0)
    rejections = models.JSONField("linhas recusadas e motivos", default=list, blank=True)

    objects = RosterImportQuerySet.as_manager()

    class Meta:
        verbose_name = "envio de cadastro de motoristas"
        verbose_name_plural = "envios de cadastro de motoristas"
        ordering = ["-uploaded_at", "-id"]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.get_state_display()})"


class RosterUpload(models.Model):
    """The bytes of a queued roster file, kept in the database so any worker machine can read them.

    Deleted in the transaction that records the outcome: the CSV holds CPFs and is not kept after the import.
    """

    roster_import = models.OneToOneField(
        RosterImport, on_delete=models.CASCADE, primary_key=True, related_name="upload"
    )
    content = models.BinaryField()

    def __str__(self) -> str:
        return f"arquivo do envio {self.roster_import_id}"


class RosterEntry(models.Model):
    """A driver on the platform's current roster in the municipality (replaced whole by each import)."""

    # Copied from roster_import in the same transaction: no index and no constraint of their own.
    platform = models.ForeignKey(
        Platform, on_delete=models.DO_NOTHING, related_name="+", db_index=False, db_constraint=False
    )
    municipality = models.ForeignKey(
        Municipality, on_delete=models.DO_NOTHING, related_name="+", db_index=False, db_constraint=False
    )
    # No database foreign key: the roster service writes the id of the import it created or claimed in the same
    # transaction, and imports are never deleted (PROTECT still guards the ORM). The row-level check cost a
    # deferred trigger per line at commit (0.4 s for 30,000 lines, docs/benchmarks.md). The unique key below
    # leads with it, so the lines of an import (the current roster) are found by index.
    roster_import = models.ForeignKey(
        RosterImport, on_delete=models.PROTECT, related_name="entries", db_index=False, db_constraint=False
    )
    line = models.PositiveIntegerField()
    cpf = models.CharField(max_length=11)
    name = models.CharField(max_length=150)
    plate = models.CharField(max_length=7)
    cnh_category = models.CharField(max_length=3)
    cnh_expiry = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            # Per import, not per platform and town: a replacement then never inserts a key the deleted
            # roster still holds in the index (each such collision costs a heap visit, tripling the COPY).
            # One import's lines per platform and town is the service's: it deletes the previous roster in
            # the same transaction, under the platform's row lock.
            models.UniqueConstraint(fields=["roster_import", "cpf"], name="roster_one_line_per_cpf"),
        ]

    def __str__(self) -> str:
        return f"{self.cpf} {self.plate}"
