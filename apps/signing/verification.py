"""Is this PDF an authentic, unchanged act of the municipality? The verdict, told apart case by case.

- by the hash of its bytes, an act registered at issue: authentic and unchanged (its signature is still checked:
  a certificate revoked or expired at signing is said);
- by the code it carries but not its hash: altered after issue, or re-signed by somebody else (a signature by a
  certificate that is not the one the act was issued with);
- issued by another municipality than the one asked about: said so;
- neither: not an act Outorga issued.
The answer carries only what the act itself prints (its title, the municipality, the signer): no personal data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import models

from apps.signing import material, pki
from apps.signing.models import IssuedDocument
from apps.tenancy.models import Municipality


class Verdict(models.TextChoices):
    AUTHENTIC = "autentico", "Documento autêntico e sem alterações"
    ALTERED = "alterado", "Documento alterado depois de emitido"
    RESIGNED = "reassinado", "Cópia assinada de novo por terceiro"
    OTHER_MUNICIPALITY = "outro_municipio", "Documento de outro município"
    SIGNATURE_PROBLEM = "assinatura_sem_validade", "Assinatura sem validade"
    UNKNOWN = "desconhecido", "Documento não reconhecido"
    NOT_PDF = "nao_pdf", "Arquivo que não é PDF"
    REGISTERED = "registrado", "Código de documento emitido pela prefeitura"


PROBLEMS = {
    "altered": "o conteúdo não corresponde ao que foi assinado",
    "modified_after": "o arquivo recebeu alterações depois da assinatura",
    "revoked": "o certificado que assinou foi revogado antes da assinatura",
    "expired": "o certificado que assinou não estava em vigor na data da assinatura",
    "untrusted": "o certificado que assinou não pertence a uma cadeia de confiança reconhecida",
}


@dataclass(frozen=True)
class DocumentCheck:
    verdict: str
    detail: str = ""
    document: IssuedDocument | None = None
    signature: pki.SignatureReading | None = None
    others: tuple[pki.SignatureReading, ...] = field(default_factory=tuple)

    @property
    def verdict_label(self) -> str:
        return str(Verdict(self.verdict).label)

    @property
    def authentic(self) -> bool:
        return self.verdict in (Verdict.AUTHENTIC, Verdict.REGISTERED)


def check_code(code: str, *, municipality: Municipality | None = None) -> DocumentCheck:
    """A typed code: what was registered under it (there is no file to compare)."""
    document = IssuedDocument.objects.select_related("municipality").filter(code=normalize_code(code)).first()
    if document is None:
        return DocumentCheck(Verdict.UNKNOWN, "Nenhum documento foi emitido com este código.")
    if municipality is not None and document.municipality_id != municipality.pk:
        return DocumentCheck(Verdict.OTHER_MUNICIPALITY, _elsewhere(document, municipality), document)
    return DocumentCheck(
        Verdict.REGISTERED,
        "Para saber se um arquivo é este documento sem alterações, envie o PDF.",
        document,
    )


def check_upload(content: bytes, *, municipality: Municipality | None = None) -> DocumentCheck:
    try:
        reading = pki.inspect(content, material.trust())
    except pki.NotAPdf:
        return DocumentCheck(Verdict.NOT_PDF, "O arquivo enviado não é um PDF legível.")
    documents = IssuedDocument.objects.select_related("municipality")
    document = documents.filter(sha256=pki.sha256_hex(content)).first()
    exact = document is not None
    if document is None and reading.code:
        document = documents.filter(code=reading.code).first()
    if document is None:
        return DocumentCheck(
            Verdict.UNKNOWN,
            "Este arquivo não corresponde a nenhum documento emitido pelo sistema: não o aceite como autêntico.",
            others=reading.signatures,
        )
    ours = next((s for s in reading.signatures if _is_ours(s, document)), None)
    others = tuple(s for s in reading.signatures if not _is_ours(s, document))
    if municipality is not None and document.municipality_id != municipality.pk:
        return DocumentCheck(
            Verdict.OTHER_MUNICIPALITY, _elsewhere(document, municipality), document, ours, others
        )
    if not exact:
        return _changed(document, ours, others)
    if document.signed and (ours is None or ours.problem):
        problem = PROBLEMS.get(ours.problem, "") if ours else "a assinatura da prefeitura não foi encontrada"
        return DocumentCheck(
            Verdict.SIGNATURE_PROBLEM, f"Não confie neste documento: {problem}.", document, ours
        )
    return DocumentCheck(Verdict.AUTHENTIC, "", document, ours, others)


def _changed(
    document: IssuedDocument, ours: pki.SignatureReading | None, others: tuple[pki.SignatureReading, ...]
) -> DocumentCheck:
    if others and (ours is None or ours.intact):
        names = ", ".join(sorted({s.signer_name for s in others}))
        detail = (
            f"O documento foi emitido pela prefeitura, mas esta cópia foi assinada depois por {names}, "
            "que não é o certificado da prefeitura. Peça o original."
        )
        return DocumentCheck(Verdict.RESIGNED, detail, document, ours, others)
    detail = (
        "O código pertence a um documento emitido pela prefeitura, mas este arquivo difere do que foi emitido"
    )
    if ours is not None and ours.problem:
        detail += f" ({PROBLEMS.get(ours.problem, 'assinatura inválida')})"
    return DocumentCheck(Verdict.ALTERED, detail + ". Não o aceite.", document, ours, others)


def _is_ours(signature: pki.SignatureReading, document: IssuedDocument) -> bool:
    return (
        bool(document.certificate_fingerprint) and signature.fingerprint == document.certificate_fingerprint
    )


def _elsewhere(document: IssuedDocument, municipality: Municipality) -> str:
    return (
        f"Este documento não foi emitido pela Prefeitura de {municipality.name}: "
        f"foi emitido pela Prefeitura de {document.municipality.name}-{document.municipality.uf}."
    )


def normalize_code(text: str) -> str:
    raw = "".join(ch for ch in (text or "").upper() if ch.isalnum())
    return "-".join(raw[i : i + 4] for i in range(0, len(raw), 4))
