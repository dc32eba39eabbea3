"""Lookup statistics (how many, never who) and public complaints for the secretariat.

Verification itself stores nothing: it reads licensing's permits. A LookupCount row is one counter per day,
municipality, route and result; the complaint is the only row a member of the public creates.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from apps.public.choices import ComplaintCategory, ComplaintState, LookupResult, LookupVia
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class LookupCountQuerySet(MunicipalityScopedQuerySet["LookupCount"]):
    pass


class LookupCount(models.Model):
    """Lookups on one day, in one municipality (none when it could not be told), by one route, with one result."""

    day = models.DateField("dia")
    municipality = models.ForeignKey(
        Municipality,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="município",
    )
    via = models.CharField("por", max_length=8, choices=LookupVia.choices)
    result = models.CharField("resultado", max_length=16, choices=LookupResult.choices)
    count = models.PositiveBigIntegerField("consultas", default=0)

    objects = LookupCountQuerySet.as_manager()

    class Meta:
        verbose_name = "contagem de consultas"
        verbose_name_plural = "contagens de consultas"
        ordering = ["-day", "via", "result"]
        constraints = [
            models.UniqueConstraint(
                fields=["day", "municipality", "via", "result"],
                condition=models.Q(municipality__isnull=False),
                name="lookup_count_one_row",
            ),
            # NULLs never collide in a unique index, so lookups of no municipality need their own constraint.
            models.UniqueConstraint(
                fields=["day", "via", "result"],
                condition=models.Q(municipality__isnull=True),
                name="lookup_count_one_row_nowhere",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.day:%d/%m/%Y} {self.get_via_display()} {self.get_result_display()}: {self.count}"


class ComplaintQuerySet(MunicipalityScopedQuerySet["Complaint"]):
    def for_queue(self) -> ComplaintQuerySet:
        return self.select_related("municipality", "permit", "handled_by").order_by("created_at", "pk")


class Complaint(models.Model):
    """A problem reported by a parent or passenger (Votuporanga art. 9º, II; Patrocínio art. 11, par. único)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="complaints", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    number = models.CharField("protocolo", max_length=20)
    year = models.PositiveSmallIntegerField("ano")
    sequence = models.PositiveIntegerField("sequência")
    category = models.CharField("problema", max_length=24, choices=ComplaintCategory.choices)
    plate = models.CharField("placa", max_length=7, blank=True)
    permit_number = models.CharField("número da autorização informado", max_length=16, blank=True)
    permit = models.ForeignKey(
        "licensing.Permit",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="autorização encontrada",
    )
    occurred_on = models.DateField("data do fato")
    place = models.CharField("local", max_length=200, blank=True)
    description = models.TextField("relato", max_length=2000)
    # Optional and only for the secretariat's reply: never shown on a public page, read under audit.
    contact = models.CharField("contato para retorno", max_length=120, blank=True)
    basis = models.CharField("fundamento", max_length=200)
    state = models.CharField(
        "situação", max_length=12, choices=ComplaintState.choices, default=ComplaintState.RECEIVED
    )
    resolution = models.TextField("providências", blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="atendida por",
    )
    received_on = models.DateField("recebida em")
    closed_on = models.DateField("encerrada em", null=True, blank=True)
    created_at = models.DateTimeField("registrada em", auto_now_add=True)

    objects = ComplaintQuerySet.as_manager()

    class Meta:
        verbose_name = "denúncia"
        verbose_name_plural = "denúncias"
        ordering = ["-year", "-sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["municipality", "year", "sequence"], name="complaint_unique_number"
            ),
        ]
        indexes = [models.Index(fields=["municipality", "state"], name="complaint_state_idx")]

    def __str__(self) -> str:
        return f"Denúncia {self.number}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "category": self.category,
            "plate": self.plate,
            "permit_id": self.permit_id,
            "occurred_on": self.occurred_on,
            "state": self.state,
            "resolution": self.resolution,
            "closed_on": self.closed_on,
        }
