"""Upload checks by content, never by the name or the browser's Content-Type: PDF, JPEG or PNG up to 10 MB.

Two more refusals (issue 28, item 6), both read without rendering anything:
- a PDF with active content — JavaScript (/JS, /JavaScript), actions run on opening or on events (/OpenAction,
  /AA), launching programs (/Launch), embedded files (/EmbeddedFile), multimedia (/RichMedia), forms that send
  or import data (/SubmitForm, /ImportData) or XFA — looked for in the file and inside its compressed streams,
  names written with #xx escapes included. A document a person sends the prefeitura never needs them, and the
  staff open these files in their browsers.
- an image whose width × height exceeds MAX_IMAGE_PIXELS, read from the PNG header (IHDR) or the JPEG frame
  header (SOFn) before anything decodes it: a small file can declare a picture that takes gigabytes to decode.
"""

from __future__ import annotations

import hashlib
import re
import struct
import zlib
from dataclasses import dataclass, field

from django.core.files.uploadedfile import UploadedFile

from apps.web.refusals import refuse

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
# 64 million pixels: a 50-megapixel phone photo (8160 × 6120) passes, a decompression bomb does not.
MAX_IMAGE_PIXELS = 64_000_000
# Stream contents decompressed when looking for active content, in all (a zip bomb stops here).
MAX_INFLATED_BYTES = 64 * 1024 * 1024
ACTIVE_PDF_NAMES = (
    b"JavaScript",
    b"JS",
    b"OpenAction",
    b"AA",
    b"Launch",
    b"EmbeddedFile",
    b"EmbeddedFiles",
    b"RichMedia",
    b"SubmitForm",
    b"ImportData",
    b"XFA",
)
_PDF_NAME = re.compile(rb"/([^\s/<>\[\]()%{}]+)")
_PDF_STREAM = re.compile(rb"stream\r?\n(.*?)endstream", re.DOTALL)
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
ACTIVE_PDF_MESSAGE = (
    "Arquivo: o PDF tem conteúdo ativo (JavaScript, ações automáticas ou arquivos embutidos), que não é aceito. "
    "Gere o PDF de novo (por exemplo, com “Imprimir como PDF”) ou envie uma foto do documento."
)
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
            _refuse_active_or_huge(content, content_type, field)
            return CheckedUpload(content_type, extension, size, hashlib.sha256(content).hexdigest(), content)
    raise refuse(
        field, "Arquivo: envie um PDF, JPEG ou PNG (o conteúdo não corresponde a nenhum deles).", "unreadable"
    )


def _read_all(upload: UploadedFile) -> bytes:
    upload.seek(0)
    content = upload.read()
    upload.seek(0)
    return content if isinstance(content, bytes) else content.encode()


def _refuse_active_or_huge(content: bytes, content_type: str, field: str) -> None:
    if content_type == "application/pdf":
        if pdf_active_content(content):
            raise refuse(field, ACTIVE_PDF_MESSAGE, "active_content")
        return
    dimensions = image_dimensions(content, content_type)
    if dimensions is None:
        raise refuse(
            field, "Arquivo: o arquivo está incompleto ou corrompido e não pode ser lido.", "unreadable"
        )
    width, height = dimensions
    if width * height > MAX_IMAGE_PIXELS:
        raise refuse(
            field,
            f"Arquivo: a imagem tem {width:_} × {height:_} pixels; o limite é de "
            f"{MAX_IMAGE_PIXELS // 1_000_000} milhões de pixels. Reduza a imagem e envie de novo.".replace(
                "_", "."
            ),
            "too_many_pixels",
        )


def pdf_active_content(content: bytes) -> list[str]:
    """The active-content names the PDF uses (empty: none), in its body and its Flate-compressed streams."""
    found = _active_names(content)
    budget = MAX_INFLATED_BYTES
    for match in _PDF_STREAM.finditer(content):
        if budget <= 0:
            return [*found, "(fluxos compactados demais)"]
        inflater = zlib.decompressobj()
        try:
            inflated = inflater.decompress(match.group(1), budget)
        except zlib.error:
            continue  # not Flate (an image's DCT, say) or damaged: nothing of ours to read in it
        budget -= len(inflated)
        found.extend(name for name in _active_names(inflated) if name not in found)
    return found


def _active_names(data: bytes) -> list[str]:
    names: list[str] = []
    for match in _PDF_NAME.finditer(data):
        name = _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), match.group(1))
        if name in ACTIVE_PDF_NAMES and name.decode() not in names:
            names.append(name.decode())
    return names


def image_dimensions(content: bytes, content_type: str) -> tuple[int, int] | None:
    """Width and height from the header alone (no decoding); None when the header cannot be read."""
    if content_type == "image/png":
        if len(content) < 24 or content[12:16] != b"IHDR":
            return None
        width, height = struct.unpack(">II", content[16:24])
        return int(width), int(height)
    return _jpeg_dimensions(content)


# JPEG start-of-frame markers (baseline, progressive, lossless...): every 0xC0-0xCF but DHT, JPG and DAC.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_dimensions(content: bytes) -> tuple[int, int] | None:
    at = 2  # after SOI
    while at + 4 <= len(content):
        if content[at] != 0xFF:
            return None
        marker = content[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        (length,) = struct.unpack(">H", content[at + 2 : at + 4])
        if marker in _SOF:
            if at + 9 > len(content):
                return None
            height, width = struct.unpack(">HH", content[at + 5 : at + 9])
            return int(width), int(height)
        if marker == 0xDA or length < 2:  # scan data before any frame header: not a picture we can size
            return None
        at += 2 + length
    return None
