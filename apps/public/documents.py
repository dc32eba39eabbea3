"""The public check of an act's PDF (apps.signing.verification) plus what the act is today.

A permit's current state is the one the public lookup gives (apps.public.verification.present: suspended,
expired, revoked...); any other act says the state of the record it was issued for, in the words of its model.
Nothing else of the record is read: the page shows no personal data beyond what the act itself prints.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.apps import apps
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest
from django.utils import timezone

from apps.licensing.models import Permit
from apps.public import ratelimit
from apps.public.verification import InvalidQuery, municipality_by_ibge, present
from apps.signing.kinds import kind_label
from apps.signing.models import IssuedDocument
from apps.signing.verification import DocumentCheck, check_code, check_upload
from apps.tenancy.models import Municipality

MAX_UPLOAD = 10 * 1024 * 1024
LIMITED = (
    "Muitas verificações em pouco tempo a partir desta conexão. Aguarde {seconds} segundos e tente de novo."
)


class Limited(Exception):
    def __init__(self, retry_after: int) -> None:
        super().__init__(LIMITED.format(seconds=retry_after))
        self.retry_after = retry_after
        self.message_pt = LIMITED.format(seconds=retry_after)


@dataclass(frozen=True)
class DocumentAnswer:
    check: DocumentCheck
    kind_label: str = ""
    current_state: str = ""

    def to_dict(self) -> dict[str, object]:
        check, document, signature = self.check, self.check.document, self.check.signature
        return {
            "verdict": check.verdict,
            "verdict_label": check.verdict_label,
            "authentic": check.authentic,
            "detail": check.detail,
            "document": None
            if document is None
            else {
                "code": document.code,
                "kind": self.kind_label,
                "title": document.title,
                "municipality": f"{document.municipality.name}-{document.municipality.uf}",
                "municipality_ibge": document.municipality.ibge_code,
                "issued_at": timezone.localtime(document.issued_at).isoformat(),
                "signed": document.signed,
                "signature_level": document.get_level_display(),
                "certificate": document.certificate_name,
                "signed_by": document.signed_by,
                "current_state": self.current_state,
            },
            "signature": None
            if signature is None
            else {
                "signer": signature.signer_name,
                "signed_at": signature.signed_at.isoformat() if signature.signed_at else None,
                "timestamped": signature.timestamped,
            },
            "other_signers": [s.signer_name for s in check.others],
        }


def _guard(request: HttpRequest) -> None:
    decision = ratelimit.hit(request)
    if not decision.allowed:
        raise Limited(decision.retry_after)


def town(ibge_code: str) -> Municipality | None:
    return municipality_by_ibge(ibge_code) if ibge_code else None


def by_code(request: HttpRequest, code: str, ibge_code: str = "") -> DocumentAnswer:
    _guard(request)
    return answer(check_code(code, municipality=town(ibge_code)))


def by_upload(request: HttpRequest, upload: UploadedFile, ibge_code: str = "") -> DocumentAnswer:
    """The uploaded file is read only when its size is plausible for an act, and never kept."""
    _guard(request)
    if (upload.size or 0) > MAX_UPLOAD:
        raise InvalidQuery(
            "file_too_large", "Arquivo grande demais: os documentos emitidos têm menos de 10 MB."
        )
    return answer(check_upload(upload.read(), municipality=town(ibge_code)))


def answer(check: DocumentCheck) -> DocumentAnswer:
    document = check.document
    if document is None:
        return DocumentAnswer(check)
    return DocumentAnswer(check, kind_label(document.kind), current_state(document, timezone.localdate()))


def current_state(document: IssuedDocument, as_of: dt.date) -> str:
    if not document.subject_type:
        return ""
    try:
        model = apps.get_model(document.subject_type)
    except (LookupError, ValueError):
        return ""
    if model is Permit:
        permit = (
            Permit.objects.filter(pk=document.subject_id)
            .select_related("municipality", "vehicle", "operator__person", "operator__company")
            .first()
        )
        if permit is None:
            return "O registro deste documento não existe mais."
        verdict = present(permit, as_of)
        return f"{verdict.status_label} em {as_of:%d/%m/%Y}: {verdict.message}"
    row = model._default_manager.filter(pk=document.subject_id).first()
    if row is None:
        return "O registro deste documento não existe mais."
    display = getattr(row, "get_state_display", None)
    return f"Situação em {as_of:%d/%m/%Y}: {display()}." if callable(display) else ""
