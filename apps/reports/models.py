"""The record of the staff daily digests: one row per person and day, so running the job twice sends once."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class StaffDigest(models.Model):
    """A daily e-mail of the deadlines at risk sent to one staff member (the e-mail itself is in the outbox)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name="servidor"
    )
    day = models.DateField("dia")
    items = models.PositiveIntegerField("prazos listados")
    created_at = models.DateTimeField("registrado em", auto_now_add=True)

    class Meta:
        verbose_name = "resumo diário de prazos"
        verbose_name_plural = "resumos diários de prazos"
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="staff_digest_once_a_day")]

    def __str__(self) -> str:
        return f"Resumo de {self.day:%d/%m/%Y} para {self.user}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "day": self.day, "items": self.items}
