"""Every act's PDF leaves through apps.signing.document_issue: signed with the municipality's certificate (real
cryptography: a test CA, a local RFC 3161 time-stamp server), or visibly marked unsigned when there is none; and
the public page tells an authentic act from a tampered, re-signed, foreign, revoked or expired one."""

from __future__ import annotations

import datetime as dt
import io
import re
import subprocess
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import signers
from pyhanko.sign.validation import validate_pdf_signature

from apps.audit.models import AuditEvent
from apps.licensing.casebook import pf_case
from apps.licensing.models import Permit
from apps.licensing.pdf import permit_pdf
from apps.licensing.tests.conftest import AS_OF, issue_permit
from apps.signing import material, pki
from apps.signing.models import IssuedDocument, SignatureLevel
from apps.signing.services import document_issue, signing_policy_set
from apps.signing.tests import pkitools
from apps.signing.tests.conftest import SigningSetup
from apps.tenancy.models import Municipality
from apps.tenancy.regimes import instrument_of
from outorga.pytest_plugin import require_tools

pytestmark = pytest.mark.django_db


def _permit(municipality: Municipality, number: int = 1) -> Permit:
    return issue_permit(pf_case(municipality, number, "João da Silva", as_of=AS_OF))


def _permit_pdf(permit: Permit) -> bytes:
    return permit_pdf(permit, f"https://outorga.example/verificar/{permit.qr_token}/")


def _text(content: bytes, tmp_path: Path) -> str:
    require_tools("pdftotext", package="poppler-utils")
    path = tmp_path / "ato.pdf"
    path.write_bytes(content)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _pdfsig(content: bytes, tmp_path: Path) -> str:
    require_tools("pdfsig", package="poppler-utils")
    path = tmp_path / "assinado.pdf"
    path.write_bytes(content)
    run = subprocess.run(["pdfsig", str(path)], capture_output=True, text=True)
    return run.stdout + run.stderr


def _check(content: bytes, municipio: str = "") -> tuple[str, str]:
    """Upload the PDF to the public page as anyone would; the verdict code and the page's text."""
    upload = SimpleUploadedFile("documento.pdf", content, content_type="application/pdf")
    response = Client().post("/verificar-documento/", {"arquivo": upload, "municipio": municipio})
    html = response.content.decode()
    found = re.search(r'data-verdict="([a-z_]+)"', html)
    assert found, html[:2000]
    return found[1], re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_without_a_certificate_the_act_is_marked_unsigned_and_registered(
    olimpia: Municipality, signing: SigningSetup, tmp_path: Path
) -> None:
    permit = _permit(olimpia)
    content = _permit_pdf(permit)
    text = _text(content, tmp_path)
    document = IssuedDocument.objects.get(subject_type="licensing.permit", subject_id=str(permit.pk))
    assert "NÃO ASSINADO DIGITALMENTE" in text
    assert f"Código de verificação: {document.code}" in text
    assert document.sha256 == pki.sha256_hex(content) and not document.signed
    assert "Signature" not in _pdfsig(content, tmp_path).split("Digital Signature Info")[-1]
    event = AuditEvent.objects.get(action="document.issue", object_id=str(document.pk))
    assert (event.after or {})["sha256"] == document.sha256
    verdict, page = _check(content)
    assert verdict == "autentico"
    assert "Não assinado digitalmente" in page and "Prefeitura de Olímpia" in page


def test_a_permit_is_signed_time_stamped_and_carries_its_validation_material(
    olimpia: Municipality, signing: SigningSetup, tmp_path: Path
) -> None:
    signing.certificate(olimpia)
    signing.timestamps()
    content = _permit_pdf(_permit(olimpia))
    reader = PdfFileReader(io.BytesIO(content))
    status = validate_pdf_signature(reader.embedded_signatures[0], material.trust().context())
    assert status.intact and status.valid and status.trusted
    assert status.timestamp_validity is not None and status.timestamp_validity.trusted
    assert "/DSS" in reader.root, "validation material (LTV) embedded"
    assert "Prefeitura Municipal de Olímpia" in str(status.signing_cert.subject.human_friendly)
    report = _pdfsig(content, tmp_path)
    assert "Signer Certificate Common Name: Prefeitura Municipal de Olímpia" in report
    assert "Signature Validation: Signature is Valid." in report
    assert "NÃO ASSINADO" not in _text(content, tmp_path)
    verdict, page = _check(content)
    assert verdict == "autentico"
    assert "Documento autêntico e sem alterações" in page
    assert "com o certificado de Prefeitura Municipal de Olímpia" in page and "(carimbo do tempo)" in page
    assert "Pode transportar passageiros hoje." in page


def test_a_tampered_copy_is_told_apart(olimpia: Municipality, signing: SigningSetup) -> None:
    signing.certificate(olimpia)
    content = bytearray(_permit_pdf(_permit(olimpia)))
    at = content.index(b"/Producer")  # a byte the signature covers
    content[at + 12] = content[at + 12] ^ 0x01
    verdict, page = _check(bytes(content))
    assert verdict == "alterado"
    assert "difere do que foi emitido" in page and "Não o aceite" in page


def test_a_copy_re_signed_by_someone_else_is_told_apart(olimpia: Municipality, signing: SigningSetup) -> None:
    signing.certificate(olimpia)
    content = _permit_pdf(_permit(olimpia))
    intruder = pkitools.make_leaf(signing.pki.root, "Despachante Qualquer")
    key = pki.load_pkcs12(intruder.p12([signing.pki.root.cert]), pkitools.PASSWORD)
    writer = IncrementalPdfFileWriter(io.BytesIO(content))
    meta = signers.PdfSignatureMetadata(field_name="OutraAssinatura")
    resigned = signers.PdfSigner(meta, signer=key.signer).sign_pdf(writer).getvalue()
    verdict, page = _check(resigned)
    assert verdict == "reassinado"
    assert "assinada depois por Despachante Qualquer" in page


def test_an_act_of_another_municipality_is_told_apart(
    olimpia: Municipality, votuporanga: Municipality, signing: SigningSetup
) -> None:
    signing.certificate(olimpia)
    content = _permit_pdf(_permit(olimpia))
    verdict, page = _check(content, municipio=votuporanga.ibge_code)
    assert verdict == "outro_municipio"
    assert "não foi emitido pela Prefeitura de Votuporanga" in page
    assert _check(content, municipio=olimpia.ibge_code)[0] == "autentico"


def test_a_signature_by_a_revoked_certificate_is_told_apart(
    olimpia: Municipality, signing: SigningSetup
) -> None:
    leaf = signing.certificate(olimpia)
    content = _permit_pdf(_permit(olimpia))
    signing.revoke(leaf, at=timezone.now() - dt.timedelta(days=1))
    verdict, page = _check(content)
    assert verdict == "assinatura_sem_validade"
    assert "certificado que assinou foi revogado" in page


def test_a_signature_by_an_expired_certificate_is_told_apart(
    olimpia: Municipality, signing: SigningSetup
) -> None:
    leaf = signing.certificate(
        olimpia,
        not_before=pkitools.NOW - dt.timedelta(days=400),
        not_after=pkitools.NOW - dt.timedelta(days=2),
    )
    with pytest.raises(Exception, match="não está em vigor"):
        _permit_pdf(_permit(olimpia))  # Outorga itself never signs with it
    key = pki.load_pkcs12(leaf.p12([signing.pki.root.cert]), pkitools.PASSWORD)
    stamped = pki.stamp(
        b"%PDF-1.4\n" + _blank_page(),
        code="ABCD-EFGH-JKLM-NPQR",
        verify_url="x",
        lines=[],
        qr=False,
        unsigned=False,
    )
    signed = pki.sign(stamped, key, reason="Teste", location="Olímpia-SP", ltv=False)
    IssuedDocument.objects.create(
        municipality=olimpia,
        code="ABCD-EFGH-JKLM-NPQR",
        kind="permit",
        title="Autorização de teste",
        sha256=pki.sha256_hex(signed),
        issued_at=timezone.now(),
        level=SignatureLevel.ADVANCED,
        signed=True,
        certificate_fingerprint=pki.certificate_fingerprint(key.certificate),
        certificate_name="Prefeitura Municipal de Olímpia",
    )
    verdict, page = _check(signed)
    assert verdict == "assinatura_sem_validade"
    assert "não estava em vigor na data da assinatura" in page


def _blank_page() -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    canvas.drawString(100, 700, "Documento de teste")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue().split(b"\n", 1)[1]


def test_a_new_certificate_does_not_invalidate_old_acts(olimpia: Municipality, signing: SigningSetup) -> None:
    signing.certificate(olimpia, "Prefeitura de Olímpia 2025")
    old = _permit_pdf(_permit(olimpia))
    signing.certificate(olimpia, "Prefeitura de Olímpia 2026")
    new = _permit_pdf(Permit.objects.get())
    old_verdict, old_page = _check(old)
    new_verdict, new_page = _check(new)
    assert (old_verdict, new_verdict) == ("autentico", "autentico")
    assert "Prefeitura de Olímpia 2025" in old_page and "Prefeitura de Olímpia 2026" in new_page


def test_a_suspended_permit_says_so_on_the_verification_page(
    olimpia: Municipality, signing: SigningSetup
) -> None:
    signing.certificate(olimpia)
    permit = _permit(olimpia)
    content = _permit_pdf(permit)
    Permit.objects.filter(pk=permit.pk).update(
        state="suspended", suspended_until=timezone.localdate() + dt.timedelta(days=30)
    )
    verdict, page = _check(content)
    assert verdict == "autentico"
    the = instrument_of(permit.regime_id).the()  # the law's own word for it: Olímpia issues an alvará
    assert f"NÃO pode transportar passageiros: {the} está suspens" in page


def test_the_municipality_chooses_which_acts_are_signed(
    olimpia: Municipality, signing: SigningSetup, tmp_path: Path
) -> None:
    signing.certificate(olimpia)
    signing_policy_set(actor=None, municipality=olimpia, levels={"permit": SignatureLevel.NONE})
    content = _permit_pdf(_permit(olimpia))
    assert "NÃO ASSINADO DIGITALMENTE" in _text(content, tmp_path)
    assert not PdfFileReader(io.BytesIO(content)).embedded_signatures
    assert AuditEvent.objects.filter(action="signing_policy.set").count() == 1


def test_an_act_of_a_person_names_them_in_the_signature_and_the_audit(
    olimpia: Municipality, signing: SigningSetup
) -> None:
    signing.certificate(olimpia)
    from apps.signing.kinds import document_kind

    content = document_issue(
        actor=None,
        municipality=olimpia,
        kind=document_kind("auto", "Auto de infração"),
        title="Auto de infração nº 0001/2026",
        content=b"%PDF-1.4\n" + _blank_page(),
        signed_by="Maria Souza, agente autuadora",
    )
    embedded = PdfFileReader(io.BytesIO(content)).embedded_signatures[0]
    assert "ato assinado por Maria Souza, agente autuadora" in str(embedded.sig_object["/Reason"])
    event = AuditEvent.objects.filter(action="document.issue").latest("pk")
    assert (event.after or {})["signed_by"] == "Maria Souza, agente autuadora"


def test_the_code_typed_or_scanned_leads_to_the_act_and_the_api_answers_the_same(
    olimpia: Municipality, signing: SigningSetup
) -> None:
    signing.certificate(olimpia)
    content = _permit_pdf(_permit(olimpia))
    document = IssuedDocument.objects.get()
    page = Client().get(f"/verificar-documento/{document.code.lower().replace('-', '')}/")
    assert page.status_code == 200
    assert "Código de documento emitido pela prefeitura" in page.content.decode()
    answer = Client().get("/api/publica/v1/documentos/", {"codigo": document.code}).json()
    assert answer["verdict"] == "registrado" and answer["document"]["title"].endswith("0001/2026")
    upload = SimpleUploadedFile("a.pdf", content, content_type="application/pdf")
    answer = Client().post("/api/publica/v1/documentos/", {"arquivo": upload}).json()
    assert answer["verdict"] == "autentico" and answer["authentic"] is True
    assert answer["signature"]["signer"] == "Prefeitura Municipal de Olímpia"
    assert "cpf" not in str(answer).lower()
    missing = Client().get("/verificar-documento/AAAA-BBBB-CCCC-DDDD/")
    assert (
        missing.status_code == 404
        and "Nenhum documento foi emitido com este código." in missing.content.decode()
    )


def test_a_file_that_is_not_an_act_is_not_recognised(signing: SigningSetup) -> None:
    verdict, page = _check(b"%PDF-1.4\n" + _blank_page())
    assert verdict == "desconhecido" and "não o aceite como autêntico" in page
    verdict, _ = _check(b"isto nao e um pdf")
    assert verdict == "nao_pdf"


def test_the_api_says_what_is_missing_in_portuguese(signing: SigningSetup) -> None:
    answer = Client().get("/api/publica/v1/documentos/")
    assert answer.status_code == 400
    assert answer.json()["error"]["message"].startswith("Envie o arquivo")
    assert Client().delete("/api/publica/v1/documentos/").status_code == 405
    page = Client().post("/verificar-documento/", {})
    assert page.status_code == 400
    assert "Envie o arquivo PDF ou digite o código de verificação." in page.content.decode()
