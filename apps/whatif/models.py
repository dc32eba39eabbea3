"""A what-if run: a change of the law an administrator simulated over the stored records, and what it flips."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from apps.tenancy.models import Municipality
from apps.tenancy.querysets import MunicipalityScopedQuerySet
from apps.whatif.choices import ChangeKind, RunState, SubjectKind


class WhatIfRunQuerySet(MunicipalityScopedQuerySet["WhatIfRun"]):
    pass


class WhatIfRun(models.Model):
    """Who asked, when, the change, the date the records are judged on, progress while running, the totals.

    ``change`` is what the engine lays over the configuration: ``{"kind": "parameter", "name": ...,
    "value": ..., "effective_from": ..., "cite": ...}`` or ``{"kind": "interpretation", "name": ...,
    "option": ...}``. ``totals`` counts, per kind of record, how many were judged and how many change.
    """

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="+")
    regime_id = models.CharField("regime", max_length=64)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="pedida por"
    )
    requested_at = models.DateTimeField("pedida em", auto_now_add=True)
    finished_at = models.DateTimeField("concluída em", null=True, blank=True)
    as_of = models.DateField("situação em")
    change_kind = models.CharField("mudança", max_length=16, choices=ChangeKind.choices)
    change = models.JSONField("mudança simulada")
    change_label = models.CharField("descrição da mudança", max_length=300)
    state = models.CharField("situação", max_length=12, choices=RunState.choices, default=RunState.QUEUED)
    expected = models.PositiveIntegerField("registros a avaliar", default=0)
    evaluated = models.PositiveIntegerField("registros avaliados", default=0)
    totals = models.JSONField("totais", default=dict, blank=True)

    objects = WhatIfRunQuerySet.as_manager()

    class Meta:
        verbose_name = "simulação de mudança na lei"
        verbose_name_plural = "simulações de mudança na lei"
        ordering = ("-requested_at", "-pk")

    def __str__(self) -> str:
        return f"Simulação nº {self.pk}: {self.change_label}"

    @property
    def percent(self) -> int:
        if self.state == RunState.DONE:
            return 100
        return min(99, self.evaluated * 100 // self.expected) if self.expected else 0

    def total(self, kind: str, key: str) -> int:
        return int(dict(self.totals.get(kind, {})).get(key, 0))

    def summary(self) -> dict[str, Any]:
        return {"change": self.change, "as_of": self.as_of.isoformat(), "regime": self.regime_id}


class WhatIfOutcome(models.Model):
    """One record whose outcome the change flips: before and after, the finding and article that flip it."""

    run = models.ForeignKey(WhatIfRun, on_delete=models.CASCADE, related_name="outcomes")
    subject_kind = models.CharField("registro", max_length=12, choices=SubjectKind.choices)
    permit = models.ForeignKey(
        "licensing.Permit", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    driver = models.ForeignKey(
        "registry.Driver", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    label = models.CharField("identificação", max_length=200)
    vehicle_plate = models.CharField("placa", max_length=16, blank=True)
    holder = models.CharField("titular", max_length=200, blank=True)
    before = models.CharField("resultado hoje", max_length=60)
    after = models.CharField("resultado com a mudança", max_length=60)
    finding = models.TextField("o que muda")
    articles = models.CharField("dispositivo", max_length=300, blank=True)
    counterfactual = models.TextField("contrafactual", blank=True)

    class Meta:
        verbose_name = "resultado que muda"
        verbose_name_plural = "resultados que mudam"
        ordering = ("subject_kind", "pk")
        indexes = [models.Index(fields=["run", "subject_kind"], name="whatif_outcome_run_kind")]

    def __str__(self) -> str:
        return f"{self.label}: {self.before} → {self.after}"
