"""Inspections (vistorias): one row per visit of a vehicle to the inspector, scheduled, then passed or failed.

A failed inspection points forward to its re-inspection (``previous`` on the new row). Item results are kept
with the label and the citations in force on the day, so a stored inspection explains itself after the
checklist or the law changes. Writes go through services.py.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from apps.inspections.choices import InspectionKind, InspectionResult, MissedState
from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class InspectionQuerySet(MunicipalityScopedQuerySet["Inspection"]):
    def pending(self) -> InspectionQuerySet:
        return self.filter(result=InspectionResult.PENDING)

    def for_list(self) -> InspectionQuerySet:
        """Everything a list row shows, in the same query (constant queries per page)."""
        return self.select_related("municipality", "vehicle", "application", "inspector")


class Inspection(models.Model):
    """A vistoria: one visit of a vehicle to the inspector, scheduled within the legal deadline, then passed or
    failed item by item; a failure opens a cure deadline and a re-inspection points back to it."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="inspections", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    vehicle = models.ForeignKey(
        "registry.Vehicle", on_delete=models.PROTECT, related_name="inspections", verbose_name="veículo"
    )
    application = models.ForeignKey(
        "licensing.Application",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="inspections",
        verbose_name="requerimento",
    )
    kind = models.CharField("tipo", max_length=16, choices=InspectionKind.choices)
    checklist_kind = models.CharField("roteiro aplicado", max_length=16)
    scheduled_for = models.DateField("agendada para")
    deadline = models.DateField("prazo legal", null=True, blank=True)
    deadline_basis = models.CharField("fundamento do prazo", max_length=300, blank=True)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="inspections",
        verbose_name="vistoriador",
    )
    performed_on = models.DateField("realizada em", null=True, blank=True)
    result = models.CharField(
        "resultado", max_length=8, choices=InspectionResult.choices, default=InspectionResult.PENDING
    )
    items = models.JSONField("itens", default=list, blank=True)
    notes = models.TextField("observações", blank=True)
    cure_deadline = models.DateField("prazo para regularizar", null=True, blank=True)
    previous = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reinspection",
        verbose_name="vistoria anterior",
    )
    decision = models.JSONField("decisões da lei", default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
        verbose_name="agendada por",
    )
    created_at = models.DateTimeField("criada em", auto_now_add=True)
    updated_at = models.DateTimeField("atualizada em", auto_now=True)

    objects = InspectionQuerySet.as_manager()

    class Meta:
        verbose_name = "vistoria"
        verbose_name_plural = "vistorias"
        ordering = ["scheduled_for", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(result=InspectionResult.PENDING, performed_on__isnull=True)
                    | (~models.Q(result=InspectionResult.PENDING) & models.Q(performed_on__isnull=False))
                ),
                name="inspection_performed_iff_result",
            ),
            models.UniqueConstraint(
                fields=["vehicle"],
                condition=models.Q(result=InspectionResult.PENDING),
                name="inspection_one_pending_per_vehicle",
            ),
        ]
        indexes = [
            models.Index(fields=["municipality", "result", "scheduled_for"], name="inspection_agenda_idx"),
            models.Index(fields=["vehicle", "result", "performed_on"], name="inspection_vehicle_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} de {self.vehicle.plate_display} em {self.scheduled_for:%d/%m/%Y}"

    @property
    def failed_items(self) -> list[dict[str, Any]]:
        return [item for item in self.items if not item.get("ok")]

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "vehicle_id": self.vehicle_id,
            "application_id": self.application_id,
            "kind": self.kind,
            "scheduled_for": self.scheduled_for,
            "deadline": self.deadline,
            "inspector_id": self.inspector_id,
            "performed_on": self.performed_on,
            "result": self.result,
            "cure_deadline": self.cure_deadline,
            "previous_id": self.previous_id,
            "failed_items": [item["code"] for item in self.failed_items],
        }


class MissedInspectionQuerySet(MunicipalityScopedQuerySet["MissedInspection"]):
    def pending(self) -> MissedInspectionQuerySet:
        return self.filter(state=MissedState.PENDING)


class MissedInspection(models.Model):
    """A calendar inspection the engine says was missed, with its penalty (e.g. Votuporanga art. 4º § 5º), found
    by the daily sweep and kept for an agent to confirm: the agent draws up the auto (an InfractionCase, whose
    deadlines start then) or dismisses it with a reason. One row per vehicle and due month (the sweep is
    idempotent)."""

    municipality = models.ForeignKey(
        Municipality, on_delete=models.PROTECT, related_name="missed_inspections", verbose_name="município"
    )
    regime_id = models.CharField("regime", max_length=64)
    vehicle = models.ForeignKey(
        "registry.Vehicle",
        on_delete=models.PROTECT,
        related_name="missed_inspections",
        verbose_name="veículo",
    )
    permit = models.ForeignKey(
        "licensing.Permit",
        on_delete=models.PROTECT,
        related_name="missed_inspections",
        verbose_name="autorização",
    )
    due_month = models.CharField("mês da vistoria", max_length=7)  # YYYY-MM, the engine's cycle_month
    found_on = models.DateField("constatada em")
    infraction_code = models.CharField("infração do catálogo", max_length=32)
    penalty = models.CharField("penalidade", max_length=120)
    message = models.CharField("constatação", max_length=300)
    basis = models.CharField("fundamento", max_length=300)
    decision = models.JSONField("decisão da lei", default=dict)
    state = models.CharField(
        "situação", max_length=12, choices=MissedState.choices, default=MissedState.PENDING
    )
    case = models.OneToOneField(
        "enforcement.InfractionCase",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="missed_inspection",
        verbose_name="auto de infração",
    )
    resolved_on = models.DateField("resolvida em", null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="resolvida por",
    )
    dismissal_reason = models.CharField("motivo do descarte", max_length=500, blank=True)

    objects = MissedInspectionQuerySet.as_manager()

    class Meta:
        verbose_name = "vistoria não realizada"
        verbose_name_plural = "vistorias não realizadas"
        ordering = ["-due_month", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["vehicle", "due_month"], name="missed_inspection_once_per_month")
        ]

    def __str__(self) -> str:
        return f"Vistoria de {self.due_month_display} não realizada ({self.vehicle.plate_display})"

    @property
    def due_month_display(self) -> str:
        year, month = self.due_month.split("-")
        return f"{month}/{year}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "vehicle_id": self.vehicle_id,
            "permit_id": self.permit_id,
            "due_month": self.due_month,
            "infraction_code": self.infraction_code,
            "penalty": self.penalty,
            "basis": self.basis,
            "state": self.state,
            "case_id": self.case_id,
            "dismissal_reason": self.dismissal_reason,
        }
