"""CNAB 240 return files (segments T/U): preview, application in one transaction, review of what does not match."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.finance import cnab240
from apps.finance.choices import GuideStatus, ReviewReason
from apps.finance.models import FeeSchedule, Payment, PaymentGuide
from apps.finance.pix_models import PaymentReview
from apps.finance.tests.conftest import issue_permit_guide
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def _cents(value: str) -> str:
    return f"{int(Decimal(value) * 100):015d}"


def _line(fields: dict[int, str]) -> str:
    """A 240-character record with each text placed at its 1-based FEBRABAN position."""
    line = [" "] * 240
    for position, text in fields.items():
        line[position - 1 : position - 1 + len(text)] = list(text)
    return "".join(line)


def title(
    document: str, paid: str, *, movement: str = "06", nominal: str = "150.00", charges: str = "0"
) -> str:
    t = _line(
        {
            1: "001",
            4: "0001",
            8: "3",
            9: "00001",
            14: "T",
            16: movement,
            38: f"{document.replace('/', ''):>20}",
            59: f"{document:<15}",
            74: "12032026",
            82: _cents(nominal),
        }
    )
    u = _line(
        {
            1: "001",
            4: "0001",
            8: "3",
            9: "00002",
            14: "U",
            16: movement,
            18: _cents(charges),
            33: _cents("0"),
            48: _cents("0"),
            63: _cents("0"),
            78: _cents(paid),
            93: _cents(paid),
            108: _cents("0"),
            123: _cents("0"),
            138: "05032026",
            146: "06032026",
        }
    )
    return f"{t}\r\n{u}\r\n"


def return_file(*titles: str) -> str:
    header = _line({1: "001", 4: "0000", 8: "0"})
    batch = _line({1: "001", 4: "0001", 8: "1"})
    trailer = _line({1: "001", 4: "0001", 8: "5"}) + "\r\n" + _line({1: "001", 4: "9999", 8: "9"})
    return header + "\r\n" + batch + "\r\n" + "".join(titles) + trailer + "\r\n"


def test_it_reads_the_titles_of_a_return_file() -> None:
    parsed = cnab240.parse(return_file(title("000001/2026", "153.40", charges="3.40")))
    assert len(parsed) == 1
    only = parsed[0]
    assert (only.document_number, only.paid_brl, only.charges_brl, only.paid_on) == (
        "000001/2026",
        Decimal("153.40"),
        Decimal("3.40"),
        dt.date(2026, 3, 5),
    )
    assert only.is_payment and only.movement_label == "Liquidação"


def test_a_malformed_file_is_refused_naming_the_line() -> None:
    broken = return_file(title("000001/2026", "150.00")).replace("\r\n", "\r\nX", 1)
    with pytest.raises(cnab240.CnabError, match="Linha 2"):
        cnab240.parse(broken)


def test_finance_previews_a_return_file_then_applies_it_once(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule, finance_olimpia_client: Client
) -> None:
    paid = issue_permit_guide(olimpia, origin_id=1)
    late = issue_permit_guide(olimpia, origin_id=2)
    content = return_file(
        title(paid.number, "150.00"),
        title(late.number, "153.40", charges="3.40"),
        title("999999/2026", "80.00"),
        title(paid.number, "150.00", movement="02"),
    )
    url = f"/municipios/{olimpia.ibge_code}/financeiro/conferencia/retorno-cnab/"
    upload = SimpleUploadedFile("retorno.ret", content.encode("latin-1"))
    preview = finance_olimpia_client.post(url, {"file": upload}).content.decode()
    assert preview.count("Baixa") >= 2 and "Conferência" in preview and "Ignorado" in preview
    assert "R$ 153,40" in preview
    assert Payment.objects.count() == 0 and PaymentReview.objects.count() == 0  # the preview wrote nothing

    finance_olimpia_client.post(url, {"content": content})
    assert set(PaymentGuide.objects.filter(pk__in=[paid.pk, late.pk]).values_list("status", flat=True)) == {
        GuideStatus.PAID
    }
    assert Payment.objects.get(guide=late).amount_brl == Decimal("153.40")
    assert Payment.objects.get(guide=paid).method == "bank_slip"
    assert PaymentReview.objects.get().reason == ReviewReason.UNKNOWN

    again = finance_olimpia_client.post(url, {"content": content}, follow=True).content.decode()
    assert "3 já registrado(s)" in again
    assert Payment.objects.count() == 2 and PaymentReview.objects.count() == 1


def test_a_file_with_a_bad_line_applies_nothing(
    olimpia: Municipality, olimpia_permit_fee: FeeSchedule, finance_olimpia_client: Client
) -> None:
    guide = issue_permit_guide(olimpia, origin_id=1)
    content = return_file(title(guide.number, "150.00")) + "curta\r\n"
    url = f"/municipios/{olimpia.ibge_code}/financeiro/conferencia/retorno-cnab/"
    page = finance_olimpia_client.post(url, {"content": content}, follow=True).content.decode()
    assert "caracteres; o CNAB 240 exige 240" in page
    assert PaymentGuide.objects.get(pk=guide.pk).status == GuideStatus.OPEN
