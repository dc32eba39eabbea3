"""Every act Outorga issues as a PDF, as it left: its verification code, the hash of its bytes, who signed it.

An IssuedDocument row is written when the act is issued (apps.signing.services.document_issue): the code printed
on the act and the SHA-256 of the final, signed bytes. The public verification page finds an uploaded PDF by its
hash (authentic and unchanged) or, failing that, by the code it carries (then it is an altered or re-signed copy).
The certificate's fingerprint is kept per document, so a new certificate (rotation) never orphans old acts.
"""

from __future__ import annotations

from django.db import models

from apps.tenancy.models import Municipality


class SignatureLevel(models.TextChoices):
    """Lei 14.063/2020 art. 4º: the levels a municipality may require for a kind of act."""

    QUALIFIED = "qualificada", "Qualificada: certificado ICP-Brasil, carimbo do tempo e dados de validação"
    ADVANCED = "avancada", "Avançada: certificado da prefeitura, sem dados de validação longa"
    NONE = "nenhuma", "Sem assinatura digital: só o código de verificação"


class IssuedDocument(models.Model):
    """One act as it left the system: the code printed on it and the SHA-256 of its final (signed) bytes."""

    municipality = models.ForeignKey(Municipality, on_delete=models.PROTECT, related_name="issued_documents")
    code = models.CharField("código de verificação", max_length=24, unique=True)
    kind = models.CharField("espécie do documento", max_length=40)
    title = models.CharField("título", max_length=200)
    subject_type = models.CharField("tipo do registro", max_length=100, blank=True)
    subject_id = models.CharField("registro", max_length=40, blank=True)
    sha256 = models.CharField("SHA-256 do arquivo", max_length=64, db_index=True)
    issued_at = models.DateTimeField("emitido em")
    level = models.CharField("nível de assinatura", max_length=20, choices=SignatureLevel.choices)
    signed = models.BooleanField("assinado digitalmente", default=False)
    timestamped = models.BooleanField("com carimbo do tempo", default=False)
    certificate_fingerprint = models.CharField("impressão digital do certificado", max_length=64, blank=True)
    certificate_name = models.CharField("titular do certificado", max_length=200, blank=True)
    signed_by = models.CharField("assinado por (pessoa)", max_length=200, blank=True)

    class Meta:
        verbose_name = "documento emitido"
        verbose_name_plural = "documentos emitidos"
        ordering = ["-issued_at", "-pk"]
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="issued_doc_subject_idx")]

    def __str__(self) -> str:
        return f"{self.title} ({self.code})"

    def audit_snapshot(self) -> dict[str, object]:
        return {
            "code": self.code,
            "kind": self.kind,
            "title": self.title,
            "subject": f"{self.subject_type}:{self.subject_id}",
            "sha256": self.sha256,
            "level": self.level,
            "signed": self.signed,
            "timestamped": self.timestamped,
            "certificate_fingerprint": self.certificate_fingerprint,
            "signed_by": self.signed_by,
        }


class SigningPolicy(models.Model):
    """The municipality's choice (Lei 14.063/2020 art. 5º) of the signature level for one kind of act.

    A kind without a row is signed at the qualified level: signing everything is the default.
    """

    municipality = models.ForeignKey(Municipality, on_delete=models.CASCADE, related_name="signing_policies")
    kind = models.CharField("espécie do documento", max_length=40)
    level = models.CharField("nível de assinatura", max_length=20, choices=SignatureLevel.choices)

    class Meta:
        verbose_name = "política de assinatura"
        verbose_name_plural = "políticas de assinatura"
        constraints = [
            models.UniqueConstraint(fields=["municipality", "kind"], name="signing_policy_unique_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.get_level_display()}"

    def audit_snapshot(self) -> dict[str, object]:
        return {"kind": self.kind, "level": self.level}
