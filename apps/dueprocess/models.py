"""Due process: appeals (defence and second instance), judgments, and the final Sanction with its effects.

Every write goes through services.py / finality.py / fines.py. The engine's Decisions (deadlines, the sanction)
are stored as JSON so a figure can be explained and replayed later.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models

from apps.dueprocess.choices import (
    EffectState,
    FilingChannel,
    FinalityReason,
    Instance,
    SanctionState,
    Verdict,
)
from apps.ops.uploads import StoredUpload
from apps.tenancy.querysets import MunicipalityScopedQuerySet


class CaseChildQuerySet(MunicipalityScopedQuerySet[Any]):
    """Rows that belong to a municipality through their case."""

    municipality_field: ClassVar[str] = "case__municipality"


class AppealQuerySet(CaseChildQuerySet):
    def pending(self) -> AppealQuerySet:
        return self.filter(judgment__isnull=True)

    def queue(self, instance: str) -> AppealQuerySet:
        """Pending appeals of one instance, the nearest judgment deadline first (none: after every dated one)."""
        rows = (
            self.pending()
            .filter(instance=instance)
            .select_related("case", "case__operator__person", "case__operator__company")
        )
        return rows.order_by(models.F("judgment_deadline").asc(nulls_last=True), "filed_on", "pk")


class JudgmentQuerySet(MunicipalityScopedQuerySet["Judgment"]):
    municipality_field: ClassVar[str] = "appeal__case__municipality"


class Appeal(models.Model):
    """A defence (first instance) or an appeal (second instance), filed on paper or in the portal."""

    case = models.ForeignKey("enforcement.InfractionCase", on_delete=models.PROTECT, related_name="appeals")
    instance = models.CharField("instância", max_length=8, choices=Instance.choices)
    filed_on = models.DateField("protocolado em")
    channel = models.CharField(
        "meio", max_length=8, choices=FilingChannel.choices, default=FilingChannel.PAPER
    )
    filed_by_staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="protocolado por",
    )
    filed_by_portal = models.BooleanField("protocolado pelo autorizatário no portal", default=False)
    appellant_name = models.CharField("recorrente", max_length=200)
    text = models.TextField("razões")
    counts_from = models.DateField("prazo contado de (ciência)", null=True, blank=True)
    deadline = models.DateField("prazo para recorrer", null=True, blank=True)
    deadline_decision = models.JSONField("decisão do prazo de recurso", default=dict, blank=True)
    late = models.BooleanField("fora do prazo", default=False)
    judgment_deadline = models.DateField("prazo para julgamento", null=True, blank=True)
    judgment_deadline_decision = models.JSONField("decisão do prazo de julgamento", default=dict, blank=True)
    created_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = AppealQuerySet.as_manager()

    class Meta:
        verbose_name = "defesa/recurso"
        verbose_name_plural = "defesas e recursos"
        ordering = ["filed_on", "pk"]
        constraints = [models.UniqueConstraint(fields=["case", "instance"], name="appeal_once_per_instance")]

    def __str__(self) -> str:
        return f"{self.get_instance_display()} — {self.case.number}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "instance": self.instance,
            "filed_on": self.filed_on,
            "channel": self.channel,
            "deadline": self.deadline,
            "late": self.late,
            "judgment_deadline": self.judgment_deadline,
        }


class Judgment(models.Model):
    """The decision on one appeal: verdict, reasoning and who decided, in which role."""

    appeal = models.OneToOneField(Appeal, on_delete=models.PROTECT, related_name="judgment")
    decided_on = models.DateField("julgado em")
    verdict = models.CharField("decisão", max_length=20, choices=Verdict.choices)
    reasoning = models.TextField("fundamentação")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_by_name = models.CharField("julgador", max_length=200)
    role = models.CharField("papel do julgador", max_length=32)
    chosen = models.JSONField(
        "quantidades fixadas no julgamento",
        default=dict,
        blank=True,
        help_text="Por chave de penalidade (penalties.yaml, days/amount: judgment): dias ou quantidade.",
    )
    votes = models.JSONField(
        "votos",
        default=list,
        blank=True,
        help_text="Órgão colegiado (labels.yaml bodies): membro, origem, voto (condemn/acquit/abstain), relator.",
    )
    created_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = JudgmentQuerySet.as_manager()

    class Meta:
        verbose_name = "julgamento"
        verbose_name_plural = "julgamentos"
        ordering = ["decided_on", "pk"]

    def __str__(self) -> str:
        return f"{self.get_verdict_display()} em {self.decided_on:%d/%m/%Y}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "appeal_id": self.appeal_id,
            "decided_on": self.decided_on,
            "verdict": self.verdict,
            "role": self.role,
            "decided_by_id": self.decided_by_id,
            "votes": self.votes,
            "chosen": self.chosen,
        }


class SanctionQuerySet(CaseChildQuerySet):
    def final(self) -> SanctionQuerySet:
        return self.filter(state=SanctionState.FINAL)


class Sanction(models.Model):
    """The penalty the engine computed for a case from the operator's history, and the effects applied."""

    case = models.OneToOneField(
        "enforcement.InfractionCase", on_delete=models.PROTECT, related_name="sanction"
    )
    operator = models.ForeignKey(
        "registry.Operator", on_delete=models.PROTECT, null=True, blank=True, related_name="sanctions"
    )
    state = models.CharField("situação", max_length=16, choices=SanctionState.choices)
    condemned_on = models.DateField("condenação em")
    decided_final_on = models.DateField("decisão definitiva em", null=True, blank=True)
    finality_reason = models.CharField(
        "motivo da definitividade", max_length=16, choices=FinalityReason.choices, blank=True
    )
    outcome = models.CharField("resultado", max_length=16)  # engine outcome: penalty | no_penalty
    decision = models.JSONField("decisão do engine (sanction)")
    penalties = models.JSONField("penalidades", default=list, blank=True)
    penalty_text = models.CharField("penalidades (texto)", max_length=500, blank=True)
    recidivism = models.BooleanField("reincidência", default=False)
    fine_quantity = models.DecimalField(
        "multa (quantidade)", max_digits=12, decimal_places=4, null=True, blank=True
    )
    fine_unit = models.CharField("multa (unidade)", max_length=8, blank=True)
    fine_brl = models.DecimalField(
        "multa (R$, na decisão)", max_digits=12, decimal_places=2, null=True, blank=True
    )
    suspension_days = models.PositiveIntegerField("suspensão (dias)", null=True, blank=True)
    suspension_start = models.DateField("suspensão de", null=True, blank=True)
    suspension_end = models.DateField("suspensão até", null=True, blank=True)
    inspection_required = models.BooleanField("vistoria ao fim da suspensão", default=False)
    cassation = models.BooleanField("cassação", default=False)
    cassation_if_not_regularized_by = models.DateField(
        "cassação se não regularizar até", null=True, blank=True
    )
    regularized_on = models.DateField("irregularidade sanada em", null=True, blank=True)
    conditional_cassation_on = models.DateField("cassado por não regularizar em", null=True, blank=True)
    ban_start = models.DateField("impedimento de", null=True, blank=True)
    ban_until = models.DateField("impedimento até", null=True, blank=True)
    effects = models.JSONField("efeitos aplicados", default=list, blank=True)
    guide = models.OneToOneField(
        "finance.PaymentGuide",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name="guia da multa",
    )
    ban = models.ForeignKey("registry.Ban", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField("registrado em", auto_now_add=True)
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    objects = SanctionQuerySet.as_manager()

    class Meta:
        verbose_name = "penalidade"
        verbose_name_plural = "penalidades"
        ordering = ["-condemned_on", "-pk"]
        indexes = [models.Index(fields=["operator", "state"], name="sanction_operator_idx")]

    def __str__(self) -> str:
        return f"Penalidade do auto {self.case.number}"

    @property
    def has_fine(self) -> bool:
        return self.fine_quantity is not None

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "state": self.state,
            "outcome": self.outcome,
            "penalties": self.penalty_text,
            "decided_final_on": self.decided_final_on,
            "fine_quantity": self.fine_quantity,
            "fine_unit": self.fine_unit,
            "suspension_start": self.suspension_start,
            "suspension_end": self.suspension_end,
            "cassation": self.cassation,
            "ban_until": self.ban_until,
            "guide_id": self.guide_id,
        }


class AttachmentQuerySet(MunicipalityScopedQuerySet["AppealAttachment"]):
    municipality_field: ClassVar[str] = "appeal__case__municipality"


class AppealAttachment(StoredUpload):
    """A document filed with the appeal (JPEG/PNG/PDF checked by content, at most 10 MB, under MEDIA_ROOT)."""

    appeal = models.ForeignKey(Appeal, on_delete=models.PROTECT, related_name="attachments")
    extension = models.CharField("extensão", max_length=8)

    objects = AttachmentQuerySet.as_manager()

    class Meta:
        verbose_name = "anexo do recurso"
        verbose_name_plural = "anexos do recurso"
        ordering = ["uploaded_at", "pk"]

    def __str__(self) -> str:
        return f"Anexo {self.pk} ({self.content_type})"

    def upload_folder(self) -> str:
        case = self.appeal.case
        return f"dueprocess/{case.municipality.ibge_code}/{case.pk}"


class EffectQuerySet(CaseChildQuerySet):
    def in_force_on(self, day: Any) -> EffectQuerySet:
        """Applied effects whose period covers ``day`` (a seizure: not yet released)."""
        applied = self.filter(state__in=(EffectState.APPLIED, EffectState.QUEUED))
        return applied.filter(models.Q(starts_on__isnull=True) | models.Q(starts_on__lte=day)).filter(
            models.Q(ends_on__isnull=True) | models.Q(ends_on__gte=day)
        )


class Effect(models.Model):
    """One effect of one penalty on one target (a permit, the vehicle, the operator), as the regime's
    penalties.yaml declares it; an effect that could not apply is kept with the reason, never dropped."""

    case = models.ForeignKey("enforcement.InfractionCase", on_delete=models.PROTECT, related_name="effects")
    sanction = models.ForeignKey(
        Sanction, on_delete=models.PROTECT, null=True, blank=True, related_name="effect_rows"
    )
    penalty_key = models.CharField("penalidade", max_length=64)
    label = models.CharField("descrição", max_length=200)
    mechanism = models.CharField("mecanismo", max_length=32)
    target = models.CharField("alvo", max_length=16)
    state = models.CharField("situação", max_length=16, choices=EffectState.choices)
    permit = models.ForeignKey(
        "licensing.Permit", on_delete=models.PROTECT, null=True, blank=True, related_name="effects"
    )
    vehicle = models.ForeignKey(
        "registry.Vehicle", on_delete=models.PROTECT, null=True, blank=True, related_name="effects"
    )
    operator = models.ForeignKey(
        "registry.Operator", on_delete=models.PROTECT, null=True, blank=True, related_name="effects"
    )
    starts_on = models.DateField("de", null=True, blank=True)
    ends_on = models.DateField("até", null=True, blank=True)
    days = models.PositiveIntegerField("dias", null=True, blank=True)
    points = models.PositiveIntegerField("pontos", null=True, blank=True)
    note = models.TextField("o que foi feito (ou por que não)")
    data = models.JSONField("dados", default=dict, blank=True)
    ended_on = models.DateField("levantado/liberado em", null=True, blank=True)
    created_at = models.DateTimeField("registrado em", auto_now_add=True)

    objects = EffectQuerySet.as_manager()

    class Meta:
        verbose_name = "efeito de penalidade"
        verbose_name_plural = "efeitos de penalidades"
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["permit", "state"], name="effect_permit_idx")]

    def __str__(self) -> str:
        return f"{self.label} — auto {self.case.number}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "penalty_key": self.penalty_key,
            "mechanism": self.mechanism,
            "target": self.target,
            "state": self.state,
            "permit_id": self.permit_id,
            "vehicle_id": self.vehicle_id,
            "starts_on": self.starts_on,
            "ends_on": self.ends_on,
            "days": self.days,
            "note": self.note,
            "ended_on": self.ended_on,
        }


class RegularizationQuerySet(CaseChildQuerySet):
    pass


class Regularization(StoredUpload):
    """The irregularity of a case regularized (Olímpia art. 24 sole §), with the evidence that shows it: the
    date reaches the engine as ``InfractionCase.regularized_by`` and decides the conditional cassação."""

    case = models.OneToOneField(
        "enforcement.InfractionCase", on_delete=models.PROTECT, related_name="regularization"
    )
    regularized_on = models.DateField("regularizado em")
    description = models.TextField("o que foi regularizado")
    extension = models.CharField("extensão", max_length=8)
    # The base's sender, required here: a regularization is always recorded by a member of the staff.
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name="enviado por"
    )

    objects = RegularizationQuerySet.as_manager()

    class Meta:
        verbose_name = "regularização"
        verbose_name_plural = "regularizações"

    def __str__(self) -> str:
        return f"Regularização do auto {self.case.number} em {self.regularized_on:%d/%m/%Y}"

    def upload_folder(self) -> str:
        return f"dueprocess/{self.case.municipality.ibge_code}/{self.case.pk}"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "regularized_on": self.regularized_on,
            "sha256": self.sha256,
            "description": self.description,
        }


class CaseNullityQuerySet(CaseChildQuerySet):
    pass


class CaseNullity(models.Model):
    """A case voided because a time limit the law attaches nullity to was lost (procedure.yaml ``nullity``, e.g.
    Patrocínio art. 19 § 1º: no penalty notice within 90 days). Applied by the daily sweep; the reason and the
    article are shown on the case."""

    case = models.OneToOneField(
        "enforcement.InfractionCase", on_delete=models.PROTECT, related_name="nullity"
    )
    limit = models.CharField("prazo perdido", max_length=32)  # a key of lawcode.procedure.NULLITY_LIMITS
    limit_day = models.DateField("último dia do prazo")
    cite = models.CharField("dispositivo", max_length=64)
    basis = models.CharField("fundamento", max_length=300)
    reason = models.TextField("motivo")
    applied_on = models.DateField("aplicada em")
    created_at = models.DateTimeField("registrada em", auto_now_add=True)

    objects = CaseNullityQuerySet.as_manager()

    class Meta:
        verbose_name = "nulidade por prazo perdido"
        verbose_name_plural = "nulidades por prazo perdido"

    def __str__(self) -> str:
        return f"Nulidade do auto {self.case.number} ({self.basis})"

    def audit_snapshot(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "limit": self.limit,
            "limit_day": self.limit_day,
            "cite": self.cite,
            "basis": self.basis,
            "reason": self.reason,
            "applied_on": self.applied_on,
        }
