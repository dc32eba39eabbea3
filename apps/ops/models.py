"""Counters summed over every server process (request counts and latencies, replica fallbacks), and the files
committed but not yet confirmed by the store.

Each process adds up in memory and writes the sums now and then (apps.ops.counters), so a scrape of any
process sees the totals of all of them. Cumulative since installation, as Prometheus counters are.
"""

from __future__ import annotations

import uuid

from django.db import models

from apps.tenancy.querysets import MunicipalityScopedQuerySet


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


class PendingFile(models.Model):
    """A committed file the store has not confirmed yet: its bytes kept in the database until it does.

    Written in the transaction of the row that names the file (apps.ops.storage.attach_after_commit), so a
    committed row never loses its file to a store that was down: the write is tried once the transaction
    commits and then again, with backoff, by the task worker (apps.ops.pending). Deleted once stored.
    """

    municipality = models.ForeignKey(
        "tenancy.Municipality", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    field = models.CharField("campo", max_length=120, help_text="ex.: registry.document.file")
    name = models.CharField("nome no armazenamento", max_length=255)
    content = models.BinaryField("conteúdo")
    sha256 = models.CharField("SHA-256", max_length=64)
    size = models.PositiveBigIntegerField("tamanho (bytes)")
    attempts = models.PositiveSmallIntegerField("tentativas", default=0)
    next_attempt_at = models.DateTimeField("próxima tentativa")
    claimed_until = models.DateTimeField(null=True, blank=True)
    claim_token = models.CharField(max_length=32, blank=True, default="")
    last_error = models.TextField("último erro", blank=True, default="")
    created_at = models.DateTimeField("recebido em", auto_now_add=True)

    objects = MunicipalityScopedQuerySet.as_manager()

    class Meta:
        verbose_name = "arquivo aguardando gravação"
        verbose_name_plural = "arquivos aguardando gravação"
        constraints = [models.UniqueConstraint(fields=["field", "name"], name="ops_pending_file_once")]
        indexes = [models.Index(fields=["next_attempt_at"], name="ops_pending_file_due")]

    def __str__(self) -> str:
        return self.name


def published_file_path(instance: PublishedFile, filename: str) -> str:
    """``published/<IBGE>/<name>-<random>.<ext>``: one folder per municipality, a new name per version (a second
    export on one day must not overwrite the object an earlier row's hash describes)."""
    stem, dot, extension = filename.rpartition(".")
    return f"published/{instance.municipality.ibge_code}/{stem}-{uuid.uuid4().hex[:12]}{dot}{extension}"


class PublishedFile(models.Model):
    """A file anyone may download (the open data, Lei 12.527/2011), kept in the store with its SHA-256.

    Each export adds a version; the newest of a (municipality, key) pair is the one served. Written through
    the storage API like every other file (after the commit, through a PendingFile), and checked against its
    hash before it is served (apps.ops.storage).
    """

    municipality = models.ForeignKey(
        "tenancy.Municipality", on_delete=models.PROTECT, related_name="+", verbose_name="município"
    )
    key = models.CharField("publicação", max_length=80, help_text="ex.: alvaras-em-vigor.csv")
    as_of = models.DateField("posição em")
    file = models.FileField("arquivo", upload_to=published_file_path, max_length=200)
    sha256 = models.CharField("SHA-256", max_length=64)
    size = models.PositiveBigIntegerField("tamanho (bytes)")
    content_type = models.CharField("tipo", max_length=80)
    published_at = models.DateTimeField("publicado em", auto_now_add=True)

    class Meta:
        verbose_name = "arquivo publicado"
        verbose_name_plural = "arquivos publicados"
        indexes = [models.Index(fields=["municipality", "key", "-id"], name="ops_published_latest")]

    def __str__(self) -> str:
        return f"{self.key} ({self.as_of:%d/%m/%Y})"
