from __future__ import annotations

import datetime as dt
import re
import zlib
from base64 import a85decode
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.audit.models import AuditEvent
from apps.audit.services import PERSONAL_DATA_READ
from apps.finance.choices import GuideStatus, PaymentMethod
from apps.finance.models import FeeSchedule, FinanceSettings, Payment, PaymentGuide, Refund
from apps.finance.services import payment_register, refund_create
from apps.finance.tests.conftest import client_for, issue_permit_guide
from apps.tenancy.choices import Role
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
OLIMPIA = "3533908"


def url(name: str, *args: object) -> str:
    return reverse(f"finance:{name}", args=[OLIMPIA, *args])


@pytest.fixture
def guide(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> PaymentGuide:
    today = timezone.localdate()
    return issue_permit_guide(olimpia, day=today)


def paid(guide: PaymentGuide) -> Payment:
    return payment_register(
        actor=None,
        guide=guide,
        paid_on=guide.issued_on,
        amount_brl=guide.amount_brl,
        method=PaymentMethod.PIX,
        reference="",
        as_of=guide.issued_on,
    )


# --- isolation ------------------------------------------------------------------------------------------


def test_the_outsider_gets_404_on_every_finance_page(outsider_client: Client, guide: PaymentGuide) -> None:
    for page in (
        url("guide_list"),
        url("guide_detail", guide.pk),
        url("guide_pdf", guide.pk),
        url("payment_register", guide.pk),
        url("refund_list"),
        url("settings_edit"),
    ):
        assert outsider_client.get(page).status_code == 404, page
    assert outsider_client.post(url("payment_register", guide.pk), {}).status_code == 404
    assert not AuditEvent.objects.filter(action=PERSONAL_DATA_READ).exists()


def test_another_municipalitys_finance_user_gets_404(
    finance_patrocinio_client: Client, guide: PaymentGuide
) -> None:
    assert finance_patrocinio_client.get(url("guide_list")).status_code == 404
    assert finance_patrocinio_client.get(url("guide_detail", guide.pk)).status_code == 404
    own_list = reverse("finance:guide_list", args=["3148103"])
    assert guide.number not in finance_patrocinio_client.get(own_list).content.decode()
    # the Olímpia guide's id under the Patrocínio URL is not found either
    other_url = reverse("finance:guide_detail", args=["3148103", guide.pk])
    assert finance_patrocinio_client.get(other_url).status_code == 404


def test_an_analyst_reads_guides_but_cannot_register_payments_nor_see_refunds(
    analyst_olimpia_client: Client, guide: PaymentGuide
) -> None:
    assert guide.number in analyst_olimpia_client.get(url("guide_list")).content.decode()
    assert analyst_olimpia_client.get(url("guide_detail", guide.pk)).status_code == 200
    assert analyst_olimpia_client.get(url("payment_register", guide.pk)).status_code == 404
    assert analyst_olimpia_client.get(url("refund_list")).status_code == 404
    assert analyst_olimpia_client.get(url("settings_edit")).status_code == 404


def test_an_enforcement_agent_of_another_town_gets_404(
    agent_votuporanga_client: Client, guide: PaymentGuide
) -> None:
    assert agent_votuporanga_client.get(url("guide_list")).status_code == 404


# --- guides list and page -------------------------------------------------------------------------------


def test_the_list_filters_by_status_and_search(
    finance_olimpia_client: Client, olimpia: Municipality, guide: PaymentGuide
) -> None:
    paid(issue_permit_guide(olimpia, origin_id=2, day=guide.issued_on))
    html = finance_olimpia_client.get(url("guide_list"), {"status": "paid"}).content.decode()
    assert "000002/" in html and "000001/" not in html
    html = finance_olimpia_client.get(url("guide_list"), {"q": "529.982"}).content.decode()
    assert "000001/" in html and "000002/" in html
    html = finance_olimpia_client.get(url("guide_list"), {"q": "Ninguém"}).content.decode()
    assert "Nenhuma guia com estes filtros" in html


def test_the_list_answers_htmx_with_the_table_only(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    html = finance_olimpia_client.get(url("guide_list"), HTTP_HX_REQUEST="true").content.decode()
    assert guide.number in html and "<html" not in html


def test_the_list_runs_a_constant_number_of_queries(
    finance_olimpia_client: Client, olimpia: Municipality, guide: PaymentGuide
) -> None:
    finance_olimpia_client.get(url("guide_list"))
    with CaptureQueriesContext(connection) as few:
        finance_olimpia_client.get(url("guide_list"))
    for origin in range(2, 12):
        issue_permit_guide(olimpia, origin_id=origin, day=guide.issued_on)
    with CaptureQueriesContext(connection) as many:
        finance_olimpia_client.get(url("guide_list"))
    assert len(many) == len(few)


def test_the_guide_page_shows_the_payer_document_and_audits_the_read(
    finance_olimpia_client: Client, finance_olimpia: User, guide: PaymentGuide
) -> None:
    html = finance_olimpia_client.get(url("guide_detail", guide.pk)).content.decode()
    assert "529.982.247-25" in html and "R$ 150,00" in html and guide.pix_payload in html
    event = AuditEvent.objects.get(action=PERSONAL_DATA_READ)
    assert (event.actor_id, event.object_type, event.object_id) == (
        finance_olimpia.pk,
        "finance.paymentguide",
        str(guide.pk),
    )


# --- PDF ------------------------------------------------------------------------------------------------


def pdf_text(data: bytes) -> str:
    """Text-drawing operators of every content stream (reportlab: Flate, sometimes ASCII85 first)."""
    chunks = []
    for raw in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        for decode in (zlib.decompress, lambda b: zlib.decompress(a85decode(b.strip(), adobe=True))):
            try:
                chunks.append(decode(raw).decode("latin-1"))
                break
            except Exception:  # noqa: BLE001 — not this encoding; try the next one
                continue
    return _unescape_pdf_strings("\n".join(chunks))


def _unescape_pdf_strings(text: str) -> str:
    """PDF string literals escape parentheses and write non-ASCII bytes as octal (\\351 is é)."""
    return re.sub(r"\\([0-7]{3}|.)", lambda m: chr(int(m[1], 8)) if m[1].isdigit() else m[1], text)


def test_the_pdf_carries_what_the_payer_needs(finance_olimpia_client: Client, guide: PaymentGuide) -> None:
    response = finance_olimpia_client.get(url("guide_pdf", guide.pk))
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    for expected in (
        f"Guia n\xba {guide.number}",
        "Jos\xe9 da Silva",
        "529.982.247-25",
        "R$ 150,00",
        "Fundamento legal",
        "art. 3",
        guide.due_on.strftime("%d/%m/%Y"),
        guide.pix_payload[:48],
    ):
        assert expected in text, expected
    assert AuditEvent.objects.filter(action=PERSONAL_DATA_READ).count() == 1


def test_the_pdf_of_a_ufm_fee_shows_the_unit_value_and_its_date(
    finance_patrocinio_client: Client, patrocinio: Municipality, patrocinio_inspection_fee: FeeSchedule
) -> None:
    from apps.finance.tests.conftest import add_patrocinio_ufm
    from apps.finance.tests.test_services import issue_inspection_guide

    add_patrocinio_ufm(patrocinio, "4.3587")
    guide = issue_inspection_guide(patrocinio)
    text = pdf_text(
        finance_patrocinio_client.get(reverse("finance:guide_pdf", args=["3148103", guide.pk])).content
    )
    for expected in ("0,25 UFM", "R$ 4,3587 (vigente em 02/03/2026)", "R$ 1,09", "art. 8"):
        assert expected in text, expected


# --- payment registration -------------------------------------------------------------------------------


def test_finance_registers_a_payment_through_the_form(
    finance_olimpia_client: Client, finance_olimpia: User, guide: PaymentGuide
) -> None:
    response = finance_olimpia_client.post(
        url("payment_register", guide.pk),
        {
            "paid_on": guide.issued_on.isoformat(),
            "amount_brl": "150,00",
            "method": "pix",
            "reference": "E2E9",
        },
    )
    assert response.status_code == 302
    guide.refresh_from_db()
    assert guide.status == GuideStatus.PAID and guide.payment.registered_by == finance_olimpia


def test_a_refused_payment_shows_the_field_and_stores_nothing(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    future = (guide.issued_on + dt.timedelta(days=3)).isoformat()
    response = finance_olimpia_client.post(
        url("payment_register", guide.pk), {"paid_on": future, "amount_brl": "150,00", "method": "pix"}
    )
    assert response.status_code == 400
    assert "Data do pagamento: não pode ser no futuro." in response.content.decode()
    assert not Payment.objects.exists()


def test_paying_twice_through_the_form_is_refused(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    paid(guide)
    response = finance_olimpia_client.post(
        url("payment_register", guide.pk),
        {"paid_on": guide.issued_on.isoformat(), "amount_brl": "150,00", "method": "pix"},
    )
    assert response.status_code == 400
    assert "não se paga duas vezes" in response.content.decode()
    assert Payment.objects.count() == 1


def test_finance_cancels_an_open_guide(finance_olimpia_client: Client, guide: PaymentGuide) -> None:
    finance_olimpia_client.post(url("guide_cancel", guide.pk), {"reason": "Emitida em duplicidade"})
    guide.refresh_from_db()
    assert guide.status == GuideStatus.CANCELLED and guide.cancel_reason == "Emitida em duplicidade"


# --- refunds --------------------------------------------------------------------------------------------


def test_finance_creates_and_pays_a_refund(finance_olimpia_client: Client, guide: PaymentGuide) -> None:
    paid(guide)
    due = (guide.issued_on + dt.timedelta(days=30)).isoformat()
    response = finance_olimpia_client.post(
        url("refund_create", guide.pk), {"amount_brl": "150,00", "due_on": due, "reason": "Recurso deferido"}
    )
    assert response.status_code == 302
    refund = Refund.objects.get()
    assert "Recurso deferido" in finance_olimpia_client.get(url("refund_list")).content.decode()
    finance_olimpia_client.post(
        url("refund_mark_paid", refund.pk), {"paid_on": guide.issued_on.isoformat(), "reference": "TED 77"}
    )
    guide.refresh_from_db()
    assert guide.status == GuideStatus.REFUNDED


def test_a_refund_over_the_payment_is_refused_on_the_amount_field(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    payment = paid(guide)
    refund_create(
        actor=None,
        payment=payment,
        amount_brl=Decimal("100.00"),
        due_on=guide.issued_on,
        reason="Recurso",
        as_of=guide.issued_on,
    )
    response = finance_olimpia_client.post(
        url("refund_create", guide.pk),
        {"amount_brl": "60,00", "due_on": guide.issued_on.isoformat(), "reason": "Recurso"},
    )
    assert response.status_code == 400
    assert "excede o que resta do pagamento (R$ 50,00)" in response.content.decode()
    assert Refund.objects.count() == 1


def test_the_refund_list_sorts_by_amount_both_ways(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    payment = paid(guide)
    for amount, reason in (("100.00", "Recurso maior"), ("50.00", "Recurso menor")):
        refund_create(
            actor=None,
            payment=payment,
            amount_brl=Decimal(amount),
            due_on=guide.issued_on,
            reason=reason,
            as_of=guide.issued_on,
        )
    ascending = finance_olimpia_client.get(url("refund_list"), {"ordering": "valor"}).content.decode()
    assert ascending.index("Recurso menor") < ascending.index("Recurso maior")
    assert (
        '<th scope="col" aria-sort="ascending"><a class="outorga-sort" href="?ordering=-valor"' in ascending
    )
    descending = finance_olimpia_client.get(url("refund_list"), {"ordering": "-valor"}).content.decode()
    assert descending.index("Recurso maior") < descending.index("Recurso menor")
    assert 'aria-sort="descending"' in descending


# --- PIX settings ---------------------------------------------------------------------------------------


def test_only_the_administrator_edits_the_pix_receiver(
    admin_olimpia_client: Client, finance_olimpia_client: Client, olimpia: Municipality
) -> None:
    assert finance_olimpia_client.get(url("settings_edit")).status_code == 404
    response = admin_olimpia_client.post(
        url("settings_edit"),
        {
            "pix_key": "financeiro@olimpia.sp.gov.br",
            "receiver_name": "Prefeitura de Olímpia",
            "receiver_city": "Olímpia",
            "guide_due_days": "15",
        },
    )
    assert response.status_code == 302
    settings = FinanceSettings.objects.get(municipality=olimpia)
    assert (settings.receiver_name, settings.guide_due_days) == ("Prefeitura de Olimpia", 15)


def test_the_pix_page_shows_the_fee_form_once_and_a_plain_title(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    html = admin_olimpia_client.get(url("settings_edit")).content.decode()
    assert html.count("Configurar taxa") == 1
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    assert title is not None and "<" not in title.group(1) and "Recebimento PIX" in title.group(1)


def test_an_invalid_pix_key_is_refused_on_its_field(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    response = admin_olimpia_client.post(
        url("settings_edit"),
        {"pix_key": "123", "receiver_name": "Prefeitura", "receiver_city": "Olimpia", "guide_due_days": "10"},
    )
    assert response.status_code == 400
    assert "Chave PIX inválida" in response.content.decode()
    assert not FinanceSettings.objects.exists()


def test_the_home_card_counts_guides_for_finance(
    finance_olimpia_client: Client,
    make_staff: Callable[..., User],
    olimpia: Municipality,
    guide: PaymentGuide,
) -> None:
    html = finance_olimpia_client.get(reverse("municipality_home", args=[OLIMPIA])).content.decode()
    assert "Financeiro" in html and "Guias em aberto" in html
    inspector = client_for(make_staff("ivo.vistoriador", (olimpia, Role.INSPECTOR)))
    assert (
        "Guias em aberto" not in inspector.get(reverse("municipality_home", args=[OLIMPIA])).content.decode()
    )


def test_the_fee_guide_works_once_the_administrator_adds_the_ufm_on_screen(
    admin_patrocinio: User, patrocinio: Municipality, patrocinio_inspection_fee: FeeSchedule
) -> None:
    from apps.finance.tests.test_services import issue_inspection_guide

    with pytest.raises(ValidationError, match="valor da UFM vigente em 02/03/2026, ainda não cadastrado"):
        issue_inspection_guide(patrocinio)
    response = client_for(admin_patrocinio).post(
        reverse("lawconfig:ufm_add", args=["3148103"]),
        {"valid_from": "2026-01-01", "value_brl": "5.0000", "cite": "art8", "source": "Decreto nº 10/2026"},
    )
    assert response.status_code == 302
    assert issue_inspection_guide(patrocinio).amount_brl == Decimal("1.25")  # 0,25 × R$ 5,00


def test_the_administrator_configures_a_fee_cited_to_the_law(
    admin_olimpia_client: Client, olimpia: Municipality
) -> None:
    fee = {
        "fee-regime_id": "olimpia_sp_escolar",
        "fee-fee_kind": "permit",
        "fee-quantity": "120,50",
        "fee-unit": "brl",
        "fee-valid_from": "2026-01-01",
    }
    response = admin_olimpia_client.post(url("fee_create"), {**fee, "fee-cite": "art999"})
    assert response.status_code == 400
    assert "Dispositivo &#x27;art999&#x27; inválido" in response.content.decode()
    assert not FeeSchedule.objects.exists()
    assert admin_olimpia_client.post(url("fee_create"), {**fee, "fee-cite": "art3"}).status_code == 302
    assert FeeSchedule.objects.get().quantity == Decimal("120.50")


def test_only_administrators_configure_fees(finance_olimpia_client: Client, olimpia: Municipality) -> None:
    response = finance_olimpia_client.post(url("fee_create"), {"fee-regime_id": "olimpia_sp_escolar"})
    assert response.status_code == 404
