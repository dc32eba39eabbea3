"""Upload checks by content, never by the name or the browser's Content-Type: PDF, JPEG or PNG up to 10 MB."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.core.files.uploadedfile import UploadedFile

from apps.web.refusals import refuse

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
# Leading bytes of each accepted format and the extension stored for it.
SIGNATURES: tuple[tuple[bytes, str, str], ...] = (
    (b"%PDF-", "application/pdf", ".pdf"),
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
)
# The trailer markers a complete file ends with; a truncated upload lacks them and cannot be opened.
TRAILERS: dict[str, bytes] = {"application/pdf": b"%%EOF", "image/jpeg": b"\xff\xd9", "image/png": b"IEND"}
# What the screens call each accepted format (never the MIME type).
KIND_LABELS: dict[str, str] = {
    "application/pdf": "PDF",
    "image/jpeg": "imagem JPEG",
    "image/png": "imagem PNG",
}


def kind_label(content_type: str) -> str:
    """«PDF», «imagem JPEG»…; a type stored before the checks existed reads as a plain «arquivo»."""
    return KIND_LABELS.get(content_type, "arquivo")


@dataclass(frozen=True)
class CheckedUpload:
    content_type: str
    extension: str
    size: int
    sha256: str
    # The bytes themselves, written to the storage only after the transaction commits (apps.ops.storage).
    content: bytes = field(repr=False, default=b"")


def check_upload(upload: UploadedFile, field: str = "file") -> CheckedUpload:
    """The file's real type, size and hash; a refusal naming the field when it is too big or unreadable."""
    size = upload.size or 0
    if size > MAX_UPLOAD_BYTES:
        raise refuse(field, f"Arquivo: {size / 1024 / 1024:.1f} MB excede o limite de 10 MB.", "too_big")
    if size == 0:
        raise refuse(field, "Arquivo: o arquivo enviado está vazio.", "empty")
    content = _read_all(upload)
    for signature, content_type, extension in SIGNATURES:
        if content.startswith(signature):
            if TRAILERS[content_type] not in content[-1024:]:
                raise refuse(
                    field,
                    "Arquivo: o arquivo está incompleto ou corrompido e não pode ser lido.",
                    "unreadable",
                )
            return CheckedUpload(content_type, extension, size, hashlib.sha256(content).hexdigest(), content)
    raise refuse(
        field, "Arquivo: envie um PDF, JPEG ou PNG (o conteúdo não corresponde a nenhum deles).", "unreadable"
    )


def _read_all(upload: UploadedFile) -> bytes:
    upload.seek(0)
    content = upload.read()
    upload.seek(0)
    return content if isinstance(content, bytes) else content.encode()
