"""The cryptography of an act's PDF, without Django: the verification stamp, the PAdES signature, the reading.

- stamp(): every page gets a footer drawn by reportlab and laid over it as a form XObject (pyHanko's writer), with
  the verification code, the address of the public verification page, a small QR code to it (unless the act
  already prints one) and, when the act is not signed, the mark «não assinado digitalmente». The code is also
  kept in the document catalogue (/OutorgaVerificacao), so an altered copy still says which act it claims to be.
- sign(): PAdES (ETSI.CAdES.detached) with the municipality's key; with a time-stamp authority, a signature
  time-stamp plus, for the qualified level, the validation material (certificates, CRLs/OCSP answers) in the
  document security store and a document time-stamp over it (PAdES B-LTA), so the signature verifies years on,
  after the certificate expires.
- inspect(): what a PDF is (its code, its signatures) as pyHanko's validator sees it, each signature's problem in
  one word the verification page turns into Portuguese.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass, field

import segno
from asn1crypto import crl as asn1_crl
from asn1crypto import x509 as asn1_x509
from pyhanko.pdf_utils import generic
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.pdf_utils.writer import copy_into_new_writer
from pyhanko.sign import fields, signers, timestamps
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.pdf_embedded import EmbeddedPdfSignature
from pyhanko.sign.validation.status import PdfSignatureStatus, SignatureCoverageLevel
from pyhanko_certvalidator import ValidationContext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

CATALOG_KEY = "/OutorgaVerificacao"
SIGNATURE_FIELD = "AssinaturaPrefeitura"
FOOTER_TOP = 15 * mm
QR_SIZE = 11 * mm
RED = colors.HexColor("#b00020")
GREY = colors.HexColor("#444444")


class NotAPdf(ValueError):
    """The bytes are not a PDF pyHanko can read."""


@dataclass(frozen=True)
class SignerMaterial:
    """A municipality's key and certificate chain, loaded from its PKCS#12 file."""

    signer: signers.SimpleSigner
    chain: tuple[asn1_x509.Certificate, ...]

    @property
    def certificate(self) -> asn1_x509.Certificate:
        cert = self.signer.signing_cert
        assert cert is not None
        return cert


@dataclass(frozen=True)
class TrustMaterial:
    """What the validator trusts: root certificates (ICP-Brasil's, or a test CA) and CRLs known here."""

    roots: tuple[asn1_x509.Certificate, ...] = ()
    crls: tuple[asn1_crl.CertificateList, ...] = ()
    allow_fetching: bool = False

    def context(self, extra: Sequence[asn1_x509.Certificate] = ()) -> ValidationContext:
        return ValidationContext(
            trust_roots=list(self.roots),
            other_certs=list(extra),
            crls=list(self.crls),
            allow_fetching=self.allow_fetching,
            revocation_mode="soft-fail",
        )


@dataclass(frozen=True)
class SignatureReading:
    """One embedded signature as the validator sees it. `problem` is '' when the signature holds."""

    signer_name: str
    fingerprint: str
    signed_at: dt.datetime | None
    timestamped: bool
    intact: bool
    covers_whole_file: bool
    problem: str  # '', 'altered', 'modified_after', 'revoked', 'expired', 'untrusted', 'invalid'
    reason: str = ""


@dataclass(frozen=True)
class Reading:
    code: str
    signatures: tuple[SignatureReading, ...] = field(default_factory=tuple)


def sha256_hex(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def certificate_fingerprint(cert: asn1_x509.Certificate) -> str:
    return hashlib.sha256(cert.dump()).hexdigest()


def certificate_name(cert: asn1_x509.Certificate) -> str:
    subject = cert.subject.native
    name = subject.get("common_name") or subject.get("organization_name") or cert.subject.human_friendly
    return str(name)


def load_pkcs12(data: bytes, password: bytes) -> SignerMaterial:
    """A PKCS#12 (A1) file's key, certificate and chain; ValueError when the password or the file is wrong."""
    signer = signers.SimpleSigner.load_pkcs12_data(data, other_certs=(), passphrase=password)
    if signer is None or signer.signing_cert is None:
        raise ValueError("PKCS#12 sem chave ou certificado utilizável")
    chain = tuple(c for c in signer.cert_registry if c.dump() != signer.signing_cert.dump())
    return SignerMaterial(signer=signer, chain=chain)


# --- stamp ----------------------------------------------------------------------------------------------------


def stamp(pdf: bytes, *, code: str, verify_url: str, lines: Sequence[str], qr: bool, unsigned: bool) -> bytes:
    """The act with its verification footer on every page and its code in the catalogue."""
    reader = _reader(pdf)
    writer = copy_into_new_writer(reader)
    pages = int(reader.root["/Pages"]["/Count"])
    for index in range(pages):
        box = [float(v) for v in writer.find_page_for_modification(index)[0].get_object()["/MediaBox"]]  # type: ignore[no-untyped-call]
        width, height = box[2] - box[0], box[3] - box[1]
        overlay = _footer(width, height, code, verify_url, lines, qr=qr, unsigned=unsigned)
        xobject = writer.import_page_as_xobject(PdfFileReader(io.BytesIO(overlay)), page_ix=0)
        name = generic.NameObject("/OutorgaRodape")
        resources = generic.DictionaryObject(  # type: ignore[no-untyped-call]
            {generic.NameObject("/XObject"): generic.DictionaryObject({name: xobject})}  # type: ignore[no-untyped-call]
        )
        stream = writer.add_object(generic.StreamObject(stream_data=b"q /OutorgaRodape Do Q"))
        writer.add_stream_to_page(index, stream, resources)  # type: ignore[no-untyped-call]
    writer.root[generic.NameObject(CATALOG_KEY)] = generic.DictionaryObject(  # type: ignore[no-untyped-call]
        {generic.NameObject("/Codigo"): generic.TextStringObject(code)}
    )
    writer.update_root()  # type: ignore[no-untyped-call]
    out = io.BytesIO()
    writer.write(out)  # type: ignore[no-untyped-call]
    return out.getvalue()


def _footer(
    width: float, height: float, code: str, url: str, lines: Sequence[str], *, qr: bool, unsigned: bool
) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), pageCompression=1)
    left, right = 20 * mm, width - 20 * mm
    text_x = left + (QR_SIZE + 3 * mm if qr else 0)
    canvas.setStrokeColor(GREY)
    canvas.setLineWidth(0.4)
    canvas.line(left, FOOTER_TOP, right, FOOTER_TOP)
    if qr:
        _draw_qr(canvas, url, left, FOOTER_TOP - 1 * mm - QR_SIZE, QR_SIZE)
    top = FOOTER_TOP - 3.5 * mm
    canvas.setFillColor(colors.black)
    canvas.setFont("Helvetica-Bold", 7.5)
    canvas.drawString(text_x, top, f"Código de verificação: {code}")
    canvas.setFont("Helvetica", 7)
    canvas.drawString(text_x, top - 3.2 * mm, f"Confira a autenticidade e a situação atual em {url}"[:130])
    for index, line in enumerate(lines[:1]):
        canvas.drawString(text_x, top - 6.4 * mm * (index + 1) / 1, line[:130])
    if unsigned:
        canvas.setFillColor(RED)
        canvas.setFont("Helvetica-Bold", 7.5)
        canvas.drawRightString(right, top, "NÃO ASSINADO DIGITALMENTE")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_qr(canvas: Canvas, data: str, x: float, y: float, size: float) -> None:
    matrix = [list(row) for row in segno.make(data, error="m", micro=False).matrix]
    cell = size / (len(matrix) + 2)
    canvas.setFillColor(colors.black)
    for row_index, row in enumerate(matrix):
        for col_index, dark in enumerate(row):
            if dark:
                canvas.rect(x + (col_index + 1) * cell, y + size - (row_index + 2) * cell, cell, cell, 0, 1)


# --- sign -----------------------------------------------------------------------------------------------------


def sign(
    pdf: bytes,
    material: SignerMaterial,
    *,
    reason: str,
    location: str,
    tsa_url: str = "",
    ltv: bool,
    trust: TrustMaterial | None = None,
) -> bytes:
    """The PAdES signature of the whole document; with ltv, the validation material goes into the file."""
    timestamper = timestamps.HTTPTimeStamper(tsa_url) if tsa_url else None
    context = None
    if ltv:
        roots = (trust.roots if trust else ()) or tuple(c for c in material.chain if _self_signed(c))
        context = TrustMaterial(
            roots=roots, crls=trust.crls if trust else (), allow_fetching=bool(trust and trust.allow_fetching)
        ).context(extra=material.chain)
    metadata = signers.PdfSignatureMetadata(
        field_name=SIGNATURE_FIELD,
        reason=reason[:250],
        location=location,
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
        embed_validation_info=ltv,
        validation_context=context,
        use_pades_lta=ltv and timestamper is not None,
    )
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
    out = signers.PdfSigner(metadata, signer=material.signer, timestamper=timestamper).sign_pdf(writer)
    return bytes(out.getbuffer())


def _self_signed(cert: asn1_x509.Certificate) -> bool:
    return bool(cert.self_signed in ("maybe", "yes"))


# --- inspect --------------------------------------------------------------------------------------------------


def inspect(pdf: bytes, trust: TrustMaterial) -> Reading:
    reader = _reader(pdf)
    readings = []
    for embedded in reader.embedded_regular_signatures:
        readings.append(_reading(embedded, trust))
    return Reading(code=_code_of(reader), signatures=tuple(readings))


def _code_of(reader: PdfFileReader) -> str:
    try:
        entry = reader.root.get(CATALOG_KEY)
        return str(entry.get_object()["/Codigo"]) if entry is not None else ""
    except (KeyError, TypeError, AttributeError):
        return ""


def _reader(pdf: bytes) -> PdfFileReader:
    if not pdf.lstrip()[:5] == b"%PDF-":
        raise NotAPdf("not a PDF")
    try:
        return PdfFileReader(io.BytesIO(pdf), strict=False)
    except Exception as exc:  # pyHanko raises a family of errors for a broken file
        raise NotAPdf(str(exc)) from exc


def _reading(embedded: EmbeddedPdfSignature, trust: TrustMaterial) -> SignatureReading:
    cert = embedded.signer_cert
    chain = list(embedded.other_embedded_certs)
    reason = str(embedded.sig_object.get("/Reason", ""))
    try:
        status = _validate(embedded, trust.context(extra=chain))
    except Exception:  # a signature pyHanko cannot even evaluate is broken
        return SignatureReading(
            signer_name=certificate_name(cert),
            fingerprint=certificate_fingerprint(cert),
            signed_at=None,
            timestamped=False,
            intact=False,
            covers_whole_file=False,
            problem="altered",
            reason=reason,
        )
    timestamp = status.timestamp_validity
    signed_at = timestamp.timestamp if timestamp is not None else status.signer_reported_dt
    whole = status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    return SignatureReading(
        signer_name=certificate_name(cert),
        fingerprint=certificate_fingerprint(cert),
        signed_at=signed_at,
        timestamped=timestamp is not None,
        intact=bool(status.intact),
        covers_whole_file=whole,
        problem=_problem(status, whole),
        reason=reason,
    )


def _validate(embedded: EmbeddedPdfSignature, context: ValidationContext) -> PdfSignatureStatus:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return validate_pdf_signature(embedded, signer_validation_context=context)
    raise RuntimeError("inspect() needs a thread without a running event loop")


def _problem(status: PdfSignatureStatus, whole: bool) -> str:
    if not (status.intact and status.valid):
        return "altered"
    indication = getattr(status, "trust_problem_indic", None)
    name = indication.name if indication is not None else ""
    if status.revoked or name == "REVOKED":
        return "revoked"
    if name in {"EXPIRED", "OUT_OF_BOUNDS_NO_POE", "OUT_OF_BOUNDS_NOT_REVOKED", "NOT_YET_VALID"}:
        return "expired"
    if not status.trusted:
        return "untrusted"
    if not whole and not _only_validation_material(status):
        return "modified_after"
    return ""


def _only_validation_material(status: PdfSignatureStatus) -> bool:
    """A signature followed by LTV material or a document time-stamp still covers the act: pyHanko's diff
    analysis classes such revisions as LTA updates, anything else as form filling or worse."""
    level = getattr(status, "modification_level", None)
    return level is not None and level.name == "LTA_UPDATES"
