"""The permit PDF: one A4 page with the number, holder, vehicle, validity, legal basis and the QR code of the
public verification URL."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from apps.licensing.casebook import Case
from apps.licensing.pdf import permit_pdf
from apps.licensing.tests.conftest import issue_permit
from apps.licensing.urls_public import VERIFY_ROUTE, verify_path
from outorga.pytest_plugin import require_tools

pytestmark = pytest.mark.django_db


def test_verify_path_fills_the_reserved_route() -> None:
    assert VERIFY_ROUTE == "verificar/<str:qr_token>/"
    assert verify_path("abc_DEF-123") == "/verificar/abc_DEF-123/"


def test_the_pdf_carries_what_an_agent_checks(olimpia_pf: Case, tmp_path: Path) -> None:
    permit = issue_permit(olimpia_pf)
    content = permit_pdf(permit, f"https://outorga.example/verificar/{permit.qr_token}/")
    assert content.startswith(b"%PDF") and content.rstrip().endswith(b"%%EOF")
    require_tools("pdftotext", package="poppler-utils")
    path = tmp_path / "alvara.pdf"
    path.write_bytes(content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    for expected in (
        "nº 0001/2026",
        "João da Silva",
        olimpia_pf.vehicle.plate,
        "10/03/2026 a 10/03/2027",
        "Lei 5.171/2025 (Olímpia), art. 13",
        f"/verificar/{permit.qr_token}/",
    ):
        assert expected in text, expected
    cpf = olimpia_pf.person.cpf  # the permit is shown inside the vehicle: the holder's CPF masked
    assert f"***.{cpf[3:6]}.{cpf[6:9]}-**" in text and cpf[3:6] + "." + cpf[6:9] + "-" + cpf[9:] not in text
    _assert_qr_decodes_to(path, f"https://outorga.example/verificar/{permit.qr_token}/")


def _assert_qr_decodes_to(pdf: Path, url: str) -> None:
    """Rasterize the page and read the QR code back, as a phone camera would."""
    require_tools("pdftoppm", package="poppler-utils")
    require_tools("zbarimg", package="zbar-tools")
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-singlefile", str(pdf), str(pdf.with_suffix(""))], check=True
    )
    decoded = subprocess.run(
        ["zbarimg", "-q", "--raw", str(pdf.with_suffix(".png"))], capture_output=True, text=True
    )
    assert decoded.stdout.strip() == url
