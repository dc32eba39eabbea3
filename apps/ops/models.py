"""Counters summed over every server process (request counts and latencies, replica fallbacks).

Each process adds up in memory and writes the sums now and then (apps.ops.counters), so a scrape of any
process sees the totals of all of them. Cumulative since installation, as Prometheus counters are.
"""

from __future__ import annotations

from django.db import models


class MetricSeries(models.Model):
    """One Prometheus series (name + labels) and its running total (not tenancy.Counter, the yearly numbers)."""

    name = models.CharField("métrica", max_length=100)
    labels = models.CharField("rótulos", max_length=300, help_text='ex.: route="public:search",status="200"')
    value = models.FloatField("valor", default=0)

    class Meta:
        db_table = "ops_counter"  # apps.ops.counters writes it with one hand-written upsert
        verbose_name = "contador"
        verbose_name_plural = "contadores"
        constraints = [
            models.UniqueConstraint(fields=["name", "labels"], name="ops_counter_one_row_per_series")
        ]

    def __str__(self) -> str:
        return f"{self.name}{{{self.labels}}} {self.value:g}"
