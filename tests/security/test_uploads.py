"""Uploads (issue 28, item 6): a PDF with active content and an image that would take gigabytes to decode are
refused before anything stores, serves or decodes them."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.registry.uploads import MAX_IMAGE_PIXELS, check_upload, image_dimensions


def _pdf(body: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("doc.pdf", b"%PDF-1.7\n" + body + b"\ntrailer<<>>\n%%EOF\n")


def _png(width: int, height: int) -> bytes:
    ihdr = struct.pack(">II", width, height) + b"\x08\x02\x00\x00\x00"
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk + b"\x00\x00\x00\x00IEND\xaeB`\x82"


def _jpeg(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc2" + struct.pack(">HBHH", 11, 8, height, width) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof + b"\x00" * 32 + b"\xff\xd9"


def _refusal(upload: SimpleUploadedFile) -> str:
    with pytest.raises(ValidationError) as error:
        check_upload(upload, field="file")
    return " ".join(error.value.message_dict["file"])


@pytest.mark.parametrize(
    "body",
    [
        b"1 0 obj<</Type/Catalog/OpenAction 2 0 R>>endobj 2 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj",
        b"1 0 obj<</Type/Catalog/Names<</JavaScript 2 0 R>>>>endobj",
        b"1 0 obj<</Type/Annot/AA<</O 2 0 R>>>>endobj",
        b"1 0 obj<</S/Launch/F(calc.exe)>>endobj",
        b"1 0 obj<</Type/Catalog/Names<</EmbeddedFiles 2 0 R>>>>endobj",
        b"1 0 obj<</Type/Catalog/#4Fpen#41ction 2 0 R>>endobj",  # the name written with #xx escapes
    ],
)
def test_a_pdf_with_active_content_is_refused(body: bytes) -> None:
    assert "conteúdo ativo" in _refusal(_pdf(body))


def test_active_content_hidden_in_a_compressed_stream_is_found() -> None:
    hidden = zlib.compress(b"<</Type/Catalog/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>")
    body = (
        b"1 0 obj<</Type/ObjStm/Filter/FlateDecode/Length %d>>stream\n" % len(hidden)
        + hidden
        + b"\nendstream"
    )
    assert "conteúdo ativo" in _refusal(_pdf(body))


def test_a_plain_pdf_is_accepted() -> None:
    text = zlib.compress(b"BT /F1 12 Tf 72 712 Td (Comprovante de residencia) Tj ET")
    body = (
        b"1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 3 0 obj<</Length %d/Filter/FlateDecode>>stream\n"
        % len(text)
        + text
        + b"\nendstream endobj 4 0 obj<</Type/Annot/Subtype/Link/A<</S/URI/URI(https://www.gov.br)>>>>endobj"
    )
    assert check_upload(_pdf(body)).content_type == "application/pdf"


@pytest.mark.parametrize("image", [_png(30_000, 30_000), _jpeg(30_000, 30_000)], ids=["png", "jpeg"])
def test_an_image_of_too_many_pixels_is_refused_from_its_header(image: bytes) -> None:
    assert "30.000 × 30.000 pixels" in _refusal(SimpleUploadedFile("foto", image))


@pytest.mark.parametrize(("make", "kind"), [(_png, "image/png"), (_jpeg, "image/jpeg")], ids=["png", "jpeg"])
def test_a_phone_photo_passes(make: Callable[[int, int], bytes], kind: str) -> None:
    photo = make(8160, 6120)  # 50 megapixels
    assert image_dimensions(photo, kind) == (8160, 6120) and MAX_IMAGE_PIXELS >= 8160 * 6120
    assert check_upload(SimpleUploadedFile("foto", photo)).content_type == kind
