from __future__ import annotations

from datetime import date
from typing import Any

from django.db import models

from apps.audit.choices import CLOSED_STATUSES, RequestKind, RequestStatus
from apps.tenancy.querysets import MunicipalityScopedQuerySet

GLOBAL_CHAIN = "global"


class HashScheme(models.TextChoices):
    # Events written before the keyed chain: plain SHA-256, still verified as they were written.
    LEGACY_SHA256 = "sha256", "SHA-256 (sem chave, eventos antigos)"
    HMAC_SHA256 = "hmac-sha256", "HMAC-SHA256 (com chave fora do banco)"


class AuditEventQuerySet(MunicipalityScopedQuerySet["AuditEvent"]):
    def of_chain(self, chain: str) -> AuditEventQuerySet:
        return self.filter(chain=chain).order_by("seq")


class AuditEvent(models.Model):
    """One recorded change or personal-data read. Append-only: database triggers refuse UPDATE/DELETE.

    Each municipality has its own HMAC chain (`chain` = IBGE code; events with no municipality go to
    the "global" chain). `seq` numbers events inside a chain and is unique with it, so two writers
    racing for the same head cannot both append: one of them fails instead of forking the chain.
    """

    occurred_at = models.DateTimeField("ocorrido em", db_index=True)
    municipality = models.ForeignKey(
        "tenancy.Municipality",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="município",
    )
    chain = models.CharField("cadeia", max_length=16)
    seq = models.PositiveBigIntegerField("sequência")
    # Plain ids, not foreign keys: the record must outlive the user and never cascade.
    actor_id = models.BigIntegerField("id do autor", null=True, blank=True)
    actor_name = models.CharField("autor", max_length=200)
    action = models.CharField("ação", max_length=64)
    object_type = models.CharField("tipo do objeto", max_length=100)
    object_id = models.CharField("id do objeto", max_length=64)
    before = models.JSONField("antes", null=True, blank=True)
    after = models.JSONField("depois", null=True, blank=True)
    request_id = models.CharField("id da requisição", max_length=64, blank=True)
    prev_hash = models.CharField("hash anterior", max_length=64, blank=True)
    hash = models.CharField("hash", max_length=64)
    # How `hash` was computed and with which key id (apps.audit.keys): rotation keeps old events verifiable.
    hash_scheme = models.CharField("esquema do hash", max_length=16, choices=HashScheme.choices)
    key_id = models.CharField("id da chave", max_length=32, blank=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        verbose_name = "evento de auditoria"
        verbose_name_plural = "eventos de auditoria"
        ordering = ["-occurred_at", "-id"]
        # Declared here rather than with db_index on the field: on PostgreSQL that also builds a
        # varchar_pattern_ops copy for LIKE, which no query of the audit table uses (actions are matched by
        # equality) and which every insert would pay for. `hash` has no index: no query looks an event up by
        # its hash, and a unique one would only restate (chain, seq)'s — the hash signs chain and seq, so two
        # events with one hash would be one event (migration 0006 says more).
        indexes = [models.Index(fields=["action"], name="auditevent_action_idx")]
        constraints = [
            models.UniqueConstraint(fields=["chain", "seq"], name="auditevent_chain_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.chain}#{self.seq} {self.action} {self.object_type}:{self.object_id}"


class DataSubjectRequestQuerySet(MunicipalityScopedQuerySet["DataSubjectRequest"]):
    def pending(self) -> DataSubjectRequestQuerySet:
        return self.exclude(status__in=CLOSED_STATUSES)


class DataSubjectRequest(models.Model):
    """A data subject's request to the encarregado (LGPD arts. 18–19), answered within its legal deadline.

    `due_on` is the full reply's deadline of art. 19, II (15 days from the request), fixed when the request is
    received, with the counting explained in `deadline_explanation`.
    """

    municipality = models.ForeignKey(
        "tenancy.Municipality", on_delete=models.PROTECT, related_name="+", verbose_name="município"
    )
    person = models.ForeignKey(
        "registry.Person",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="pessoa cadastrada",
    )
    requester_name = models.CharField("nome do titular", max_length=200)
    requester_cpf = models.CharField("CPF do titular", max_length=11)
    contact = models.CharField("contato para a resposta", max_length=200)
    kind = models.CharField("direito solicitado", max_length=16, choices=RequestKind.choices)
    description = models.TextField("pedido", max_length=4000)
    received_on = models.DateField("recebido em")
    due_on = models.DateField("prazo de resposta")
    deadline_explanation = models.CharField("contagem do prazo", max_length=500)
    status = models.CharField(
        "situação", max_length=16, choices=RequestStatus.choices, default=RequestStatus.RECEIVED
    )
    answer = models.TextField("resposta", max_length=8000, blank=True)
    answered_on = models.DateField("respondido em", null=True, blank=True)
    created_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = DataSubjectRequestQuerySet.as_manager()

    class Meta:
        verbose_name = "requerimento de titular (LGPD)"
        verbose_name_plural = "requerimentos de titulares (LGPD)"
        ordering = ["due_on", "pk"]

    def __str__(self) -> str:
        return f"Requerimento nº {self.pk} — {self.get_kind_display()}"

    @property
    def is_closed(self) -> bool:
        return self.status in CLOSED_STATUSES

    def is_late(self, today: date) -> bool:
        return not self.is_closed and today > self.due_on

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "requester_cpf": self.requester_cpf,
            "contact": self.contact,
            "person_id": self.person_id,
            "kind": self.kind,
            "status": self.status,
            "received_on": self.received_on,
            "due_on": self.due_on,
            "answered_on": self.answered_on,
        }
