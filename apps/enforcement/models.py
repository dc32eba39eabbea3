"""Autos de infração (InfractionCase) with their evidence, notices, editais and timeline.

Every write goes through services.py. A case number is 'AI-NNNN/YYYY', sequential per municipality and year
(the municipality's tenancy.Counter row is locked while a number is taken; the unique constraint is the last
line). Files (evidence, notice PDFs) live under MEDIA_ROOT, never in the database.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from apps.audit.timeline import TimelineEvent
from apps.enforcement.choices import CaseState, EventKind, NoticeChannel, NoticePurpose, ReturnedReason
from apps.ops.uploads import StoredUpload
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class CaseQuerySet(MunicipalityScopedQuerySet["InfractionCase"]):
    def of_agent(self, user: Any) -> CaseQuerySet:
        return self.filter(agent_id=getattr(user, "pk", None))

    def for_list(self) -> CaseQuerySet:
        """What a list row shows: the holder's name (person or company) and the penalty notice date."""
        return self.select_related("operator__person", "operator__company").with_penalty_notice()

    def with_penalty_notice(self) -> CaseQuerySet:
        """Annotate ``penalty_notified_on``: the first penalty notice sent (for the Patrocínio 90-day flag)."""
        first = Notice.objects.filter(case=models.OuterRef("pk"), purpose=NoticePurpose.FINAL_DECISION)
        return self.annotate(
            penalty_notified_on=models.Subquery(first.order_by("sent_on").values("sent_on")[:1])
        )


class CaseChildQuerySet(MunicipalityScopedQuerySet[Any]):
    """Rows that belong to a municipality through their case."""

    municipality_field: ClassVar[str] = "case__municipality"


class EditalQuerySet(MunicipalityScopedQuerySet["Edital"]):
    pass


class InfractionCase(models.Model):
    """An auto de infração and the proceeding it opens (one row per auto)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="infraction_cases", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    number = models.CharField("número", max_length=20)
    year = models.PositiveSmallIntegerField("ano")
    sequence = models.PositiveIntegerField("sequência")
    infraction_code = models.CharField("infração (código do catálogo)", max_length=32)
    infraction_title = models.CharField("infração", max_length=300)
    infraction_cite = models.CharField("dispositivo infringido", max_length=64)
    occurred_at = models.DateTimeField("data e hora da infração")
    drawn_on = models.DateField("lavrado em")
    place = models.CharField("local", max_length=300)
    description = models.TextField("descrição")
    circumstances = models.TextField("circunstâncias", blank=True)
    plate = models.CharField("placa", max_length=8)
    vehicle = models.ForeignKey(
        "registry.Vehicle",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="infraction_cases",
        verbose_name="veículo",
    )
    permit = models.ForeignKey(
        "licensing.Permit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="infraction_cases",
        verbose_name="autorização",
    )
    operator = models.ForeignKey(
        "registry.Operator",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="infraction_cases",
        verbose_name="autorizatário",
    )
    driver = models.ForeignKey(
        "registry.Driver",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="infraction_cases",
        verbose_name="condutor",
    )
    driver_name = models.CharField("condutor (nome informado)", max_length=200, blank=True)
    offender_name = models.CharField("autuado (nome informado)", max_length=200, blank=True)
    offender_document = models.CharField("CPF/CNPJ do autuado (informado)", max_length=14, blank=True)
    offender_address = models.CharField("endereço do autuado (informado)", max_length=300, blank=True)
    clandestine = models.BooleanField("sem autorização (transporte clandestino)", default=False)
    agent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="infraction_cases",
        verbose_name="agente autuador",
    )
    agent_name_at_time = models.CharField("nome do agente", max_length=200)
    agent_registration = models.CharField("matrícula do agente", max_length=40, blank=True)
    state = models.CharField("situação", max_length=16, choices=CaseState.choices, default=CaseState.DRAFTED)
    already_punished_as_traffic_only = models.BooleanField(
        "fato já punido exclusivamente como infração de trânsito", default=False
    )
    traffic_only_reference = models.CharField(
        "referência da autuação de trânsito", max_length=200, blank=True
    )
    warnings = models.JSONField("avisos (omissões do auto)", default=list, blank=True)
    auto_omissions = models.JSONField("elementos do auto omitidos", default=list, blank=True)
    notice_limit = models.DateField("prazo para notificação da penalidade", null=True, blank=True)
    notice_limit_decision = models.JSONField("decisão do prazo de notificação", default=dict, blank=True)
    created_at = models.DateTimeField("criado em", auto_now_add=True)
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    objects = CaseQuerySet.as_manager()

    class Meta:
        verbose_name = "auto de infração"
        verbose_name_plural = "autos de infração"
        ordering = ["-year", "-sequence"]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "year", "sequence"], name="case_unique_number"),
        ]
        indexes = [
            models.Index(fields=["municipality", "state"], name="case_state_idx"),
            models.Index(fields=["agent", "-created_at"], name="case_agent_idx"),
            models.Index(fields=["municipality", "plate"], name="case_plate_idx"),
        ]

    def __str__(self) -> str:
        return f"Auto de infração {self.number}"

    @property
    def is_open(self) -> bool:
        from apps.enforcement.choices import OPEN_STATES

        return self.state in OPEN_STATES

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "state": self.state,
            "infraction_code": self.infraction_code,
            "occurred_at": self.occurred_at,
            "plate": self.plate,
            "operator_id": self.operator_id,
            "permit_id": self.permit_id,
            "vehicle_id": self.vehicle_id,
            "driver_id": self.driver_id,
            "clandestine": self.clandestine,
            "agent_id": self.agent_id,
            "already_punished_as_traffic_only": self.already_punished_as_traffic_only,
            "notice_limit": self.notice_limit,
            "auto_omissions": list(self.auto_omissions),
        }


def notice_pdf_path(notice: Notice, filename: str) -> str:
    return f"enforcement/{notice.case.municipality.ibge_code}/{notice.case_id}/notices/{uuid.uuid4().hex}.pdf"


def edital_pdf_path(edital: Edital, filename: str) -> str:
    return f"enforcement/{edital.municipality.ibge_code}/editais/{uuid.uuid4().hex}.pdf"


class Evidence(StoredUpload):
    """A photo or document supporting the auto (Olímpia art. 30 VI); checked by content, at most 10 MB."""

    case = models.ForeignKey(InfractionCase, on_delete=models.PROTECT, related_name="evidence")
    caption = models.CharField("legenda", max_length=300, blank=True)

    objects = CaseChildQuerySet.as_manager()

    class Meta:
        verbose_name = "prova"
        verbose_name_plural = "provas"
        ordering = ["uploaded_at", "pk"]

    def __str__(self) -> str:
        return self.caption or f"Prova {self.pk}"

    def upload_folder(self) -> str:
        return f"enforcement/{self.case.municipality.ibge_code}/{self.case_id}"


class Edital(models.Model):
    """A published edital notifying every offender who could not be reached otherwise."""

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    regime_id = models.CharField("regime", max_length=64)
    number = models.CharField("número", max_length=20)
    year = models.PositiveSmallIntegerField("ano")
    sequence = models.PositiveIntegerField("sequência")
    purpose = models.CharField("finalidade", max_length=20, choices=NoticePurpose.choices)
    text = models.TextField("texto")
    published_on = models.DateField("publicado em")
    publication_ref = models.CharField("veículo de publicação", max_length=300)
    pdf = models.FileField("PDF", upload_to=edital_pdf_path, max_length=200, blank=True)
    pdf_sha256 = models.CharField("SHA-256 do PDF", max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField("criado em", auto_now_add=True)

    objects = EditalQuerySet.as_manager()

    class Meta:
        verbose_name = "edital"
        verbose_name_plural = "editais"
        ordering = ["-year", "-sequence"]
        constraints = [
            models.UniqueConstraint(fields=["municipality", "year", "sequence"], name="edital_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Edital {self.number}"


class Notice(models.Model):
    """One notice of the case by one channel; ciência is the engine's ``ciencia_date`` for its regime."""

    case = models.ForeignKey(InfractionCase, on_delete=models.PROTECT, related_name="notices")
    purpose = models.CharField("finalidade", max_length=20, choices=NoticePurpose.choices)
    channel = models.CharField("meio", max_length=12, choices=NoticeChannel.choices)
    recipient_name = models.CharField("destinatário", max_length=200)
    recipient_address = models.CharField("endereço", max_length=300, blank=True)
    body = models.TextField("texto da notificação")
    sent_on = models.DateField("expedida em")
    received_on = models.DateField("recebida em", null=True, blank=True)
    refused = models.BooleanField("recusou-se a assinar", default=False)
    signature_name = models.CharField("assinado por", max_length=200, blank=True)
    returned_reason = models.CharField(
        "motivo da devolução", max_length=16, choices=ReturnedReason.choices, blank=True, default=""
    )
    edital = models.ForeignKey(
        Edital, on_delete=models.PROTECT, null=True, blank=True, related_name="notices", verbose_name="edital"
    )
    ciencia_on = models.DateField("ciência em", null=True, blank=True)
    decision = models.JSONField("decisão da ciência", default=dict, blank=True)
    pdf = models.FileField("PDF", upload_to=notice_pdf_path, max_length=200, blank=True)
    pdf_sha256 = models.CharField("SHA-256 do PDF", max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField("criado em", auto_now_add=True)

    objects = CaseChildQuerySet.as_manager()

    class Meta:
        verbose_name = "notificação"
        verbose_name_plural = "notificações"
        ordering = ["sent_on", "pk"]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} — {self.get_channel_display()}"

    @property
    def reached(self) -> bool:
        """The offender is deemed to know it (the engine gave a ciência date)."""
        return self.ciencia_on is not None

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "purpose": self.purpose,
            "channel": self.channel,
            "sent_on": self.sent_on,
            "received_on": self.received_on,
            "refused": self.refused,
            "returned_reason": self.returned_reason,
            "edital_id": self.edital_id,
            "ciencia_on": self.ciencia_on,
        }


class CaseEvent(TimelineEvent):
    """One line of the case timeline; written by the services (of enforcement and due process), never edited."""

    case = models.ForeignKey(InfractionCase, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField("evento", max_length=24, choices=EventKind.choices)

    objects = CaseChildQuerySet.as_manager()

    class Meta:
        verbose_name = "evento do auto"
        verbose_name_plural = "eventos do auto"
        ordering = ["on", "at", "pk"]
