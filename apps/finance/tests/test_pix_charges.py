"""Charges with due date at the municipality's PSP, the bank's confirmation and the review queue (issue 30).

Every test talks to the local PSP (tests/psp/server.py) over mTLS; the fixture fails a test whose requests or
answers leave the Banco Central's API Pix schema.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.finance.choices import GuideStatus, ReviewReason, ReviewStatus
from apps.finance.models import Payment, PaymentGuide
from apps.finance.origins import payment_handlers_replaced
from apps.finance.pix_models import PaymentReview, PixCharge, PixReceived
from apps.finance.pix_webhook import sign
from apps.finance.services import guide_cancel
from apps.finance.services_pix import payment_review_resolve, pix_charge_sync, pix_charges_due
from apps.finance.tests.conftest import (
    WEBHOOK_SECRET,
    client_for,
    configure_charge_terms,
    issue_permit_guide,
)
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db(transaction=False)

BRT = dt.timezone(dt.timedelta(hours=-3))


def _issue(olimpia: Municipality, capture: Any, origin_id: int = 1) -> PaymentGuide:
    with capture(execute=True):
        guide = issue_permit_guide(olimpia, origin_id=origin_id)
    guide.refresh_from_db()
    return guide


def _at(day: int, hour: int = 10) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour, 0, tzinfo=BRT)


def _webhook(
    client: Client, olimpia: Municipality, items: list[dict[str, Any]], secret: str = WEBHOOK_SECRET
) -> Any:
    body = json.dumps({"pix": items}).encode()
    return client.post(
        f"/pix/webhook/{olimpia.ibge_code}/pix",
        data=body,
        content_type="application/json",
        HTTP_X_PIX_SIGNATURE=sign(secret, body),
    )


@pytest.fixture
def charged(
    olimpia: Municipality, olimpia_permit_fee: Any, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> PaymentGuide:
    configure_charge_terms(olimpia)
    return _issue(olimpia, django_capture_on_commit_callbacks)


def test_it_creates_the_charge_at_the_psp_after_commit_and_the_guide_carries_its_copia_e_cola(
    charged: PaymentGuide, local_psp: Any, finance_olimpia_client: Client, olimpia: Municipality
) -> None:
    charge = charged.pix_charge
    assert charge.txid in local_psp.charges
    assert charge.confirmed == "active" and charge.revision == 0 and charge.next_attempt_at is None
    assert charged.pix_payload == local_psp.charges[charge.txid]["pixCopiaECola"]
    page = finance_olimpia_client.get(f"/municipios/{olimpia.ibge_code}/financeiro/guias/{charged.pk}/")
    text = page.content.decode()
    assert local_psp.charges[charge.txid]["pixCopiaECola"] in text
    assert "Cobrança com vencimento registrada no banco" in text


def test_it_does_not_call_the_psp_when_the_guide_transaction_rolls_back(
    olimpia: Municipality, olimpia_permit_fee: Any, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        issue_permit_guide(olimpia)
    assert callbacks and local_psp.charges == {}


def test_it_sends_the_fine_interest_and_discount_the_tax_code_sets(
    charged: PaymentGuide, local_psp: Any
) -> None:
    sent = local_psp.charges[charged.pix_charge.txid]
    assert sent["valor"] == {
        "original": "150.00",
        "multa": {"modalidade": 2, "valorPerc": "2.00"},
        "juros": {"modalidade": 3, "valorPerc": "1.00"},
        "desconto": {"modalidade": 2, "descontoDataFixa": [{"data": "2026-03-07", "valorPerc": "10.00"}]},
    }
    assert sent["calendario"] == {
        **sent["calendario"],
        "dataDeVencimento": "2026-03-12",
        "validadeAposVencimento": 30,
    }
    assert sent["devedor"] == {"cpf": "52998224725", "nome": "José da Silva"}


def test_a_psp_timeout_leaves_the_charge_pending_and_the_retry_creates_it_once(
    olimpia: Municipality, olimpia_permit_fee: Any, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    local_psp.fail_next("PUT", "/cobv/", "timeout")
    guide = _issue(olimpia, django_capture_on_commit_callbacks)
    charge = PixCharge.objects.get(guide=guide)
    assert charge.confirmed == "" and charge.attempts == 1 and "comunicação" in charge.last_error
    assert guide.pix_payload.startswith("000201") and charge.txid not in local_psp.charges
    later = timezone.now() + dt.timedelta(minutes=2)
    assert pix_charges_due(now=later) == [charge.pk]
    charge = pix_charge_sync(charge_id=charge.pk, now=later)
    assert charge.confirmed == "active" and charge.attempts == 0 and charge.last_error == ""
    assert [c.method for c in local_psp.calls if c.path.startswith("/api/v2/cobv/")] == ["PUT", "PUT"]


def test_a_5xx_is_retried_with_backoff_and_audited(
    olimpia: Municipality, olimpia_permit_fee: Any, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    local_psp.fail_next("PUT", "/cobv/", "503")
    guide = _issue(olimpia, django_capture_on_commit_callbacks)
    charge = PixCharge.objects.get(guide=guide)
    assert charge.last_error.startswith("HTTP 503") and charge.next_attempt_at is not None
    assert AuditEvent.objects.filter(action="pix_charge.sync_failed").count() == 1
    call_command("pix_charges_sync", stdout=io.StringIO())  # not due yet: nothing happens
    assert PixCharge.objects.get(pk=charge.pk).confirmed == ""
    PixCharge.objects.filter(pk=charge.pk).update(next_attempt_at=timezone.now() - dt.timedelta(seconds=1))
    call_command("pix_charges_sync", stdout=io.StringIO())
    assert PixCharge.objects.get(pk=charge.pk).confirmed == "active"


def test_a_create_that_reached_the_psp_before_failing_is_revised_not_duplicated(
    charged: PaymentGuide, local_psp: Any
) -> None:
    PixCharge.objects.filter(pk=charged.pix_charge.pk).update(revision=None, next_attempt_at=timezone.now())
    charge = pix_charge_sync(charge_id=charged.pix_charge.pk, now=timezone.now())
    assert charge.confirmed == "active" and charge.revision == 1
    assert [c.method for c in local_psp.calls if c.path.startswith("/api/v2/cobv/")] == [
        "PUT",
        "PUT",
        "GET",
        "PATCH",
    ]


def test_cancelling_the_guide_removes_the_charge_at_the_psp(
    charged: PaymentGuide, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        guide_cancel(actor=None, guide=charged, reason="Requerimento desistido", as_of=dt.date(2026, 3, 3))
    charge = PixCharge.objects.get(guide=charged)
    assert local_psp.charges[charge.txid]["status"] == "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    assert charge.confirmed == "removed" and charge.revision == 1


def test_the_webhook_marks_the_guide_paid_with_the_early_payment_discount_and_runs_its_consequences(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality, finance_olimpia_client: Client
) -> None:
    seen: list[str] = []

    def application_paid(*, guide: PaymentGuide, payment: Payment, actor: Any, as_of: dt.date) -> None:
        seen.append(f"{guide.number} {payment.amount_brl}")

    pix = local_psp.pay(charged.pix_charge.txid, amount="135.00", at=_at(3), notify=False)
    with payment_handlers_replaced({"application": application_paid}):
        response = _webhook(Client(), olimpia, [pix])
    assert response.status_code == 200 and response.json()["baixados"] == 1
    charged.refresh_from_db()
    assert charged.status == GuideStatus.PAID and seen == [f"{charged.number} 135.00"]
    payment = charged.payment
    assert (payment.paid_on, payment.method, payment.reference) == (
        dt.date(2026, 3, 3),
        "pix",
        pix["endToEndId"],
    )
    assert AuditEvent.objects.filter(action="payment.register", object_id=str(payment.pk)).exists()
    page = finance_olimpia_client.get(f"/municipios/{olimpia.ibge_code}/financeiro/guias/{charged.pk}/")
    assert "Pago em 03/03/2026: R$ 135,00 (PIX)" in page.content.decode()


def test_a_late_payment_owes_the_fine_and_interest(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality
) -> None:
    pix = local_psp.pay(charged.pix_charge.txid, amount="153.40", at=_at(20), notify=False)
    assert _webhook(Client(), olimpia, [pix]).json()["baixados"] == 1
    assert PaymentGuide.objects.get(pk=charged.pk).payment.amount_brl == Decimal("153.40")


def test_a_webhook_delivered_twice_pays_once(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality
) -> None:
    pix = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(10), notify=False)
    first, second = _webhook(Client(), olimpia, [pix]), _webhook(Client(), olimpia, [pix])
    assert (first.status_code, second.status_code) == (200, 200)
    assert second.json()["repetidos"] == 1 and second.json()["baixados"] == 0
    assert PixReceived.objects.count() == 1 and Payment.objects.count() == 1
    assert PaymentReview.objects.count() == 0


def test_a_webhook_with_a_bad_signature_is_refused_and_changes_nothing(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality
) -> None:
    pix = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(10), notify=False)
    response = _webhook(Client(), olimpia, [pix], secret="outro-segredo")
    assert response.status_code == 401
    assert (
        PixReceived.objects.count() == 0
        and PaymentGuide.objects.get(pk=charged.pk).status == GuideStatus.OPEN
    )


def test_a_municipality_without_webhook_credentials_accepts_no_webhook(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(f"OUTORGA_PIX_WEBHOOK_{olimpia.ibge_code}_SECRET")
    pix = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(10), notify=False)
    assert _webhook(Client(), olimpia, [pix]).status_code == 403
    assert PixReceived.objects.count() == 0


def test_a_different_amount_waits_for_review_and_the_guide_stays_open(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality, finance_olimpia_client: Client
) -> None:
    pix = local_psp.pay(charged.pix_charge.txid, amount="100.00", at=_at(10), notify=False)
    assert _webhook(Client(), olimpia, [pix]).json()["conferencia"] == 1
    review = PaymentReview.objects.get()
    assert review.reason == ReviewReason.AMOUNT and review.expected_brl == Decimal("150.00")
    assert PaymentGuide.objects.get(pk=charged.pk).status == GuideStatus.OPEN
    page = finance_olimpia_client.get(
        f"/municipios/{olimpia.ibge_code}/financeiro/conferencia/"
    ).content.decode()
    assert "Valor diferente do devido" in page and "R$ 100,00" in page and charged.number in page


def test_webhooks_out_of_order_pay_the_guide_once_and_queue_the_second_pix(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality
) -> None:
    earlier = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(9), notify=False)
    later = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(10), notify=False)
    _webhook(Client(), olimpia, [later])
    _webhook(Client(), olimpia, [earlier])
    guide = PaymentGuide.objects.get(pk=charged.pk)
    assert guide.payment.reference == later["endToEndId"]
    review = PaymentReview.objects.get()
    assert (
        review.reason == ReviewReason.ALREADY_PAID and review.received.end_to_end_id == earlier["endToEndId"]
    )


def test_a_pix_for_a_cancelled_guide_or_an_unknown_charge_is_queued(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality, django_capture_on_commit_callbacks: Any
) -> None:
    paid_before_removal = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(4), notify=False)
    with django_capture_on_commit_callbacks(execute=True):
        guide_cancel(actor=None, guide=charged, reason="Emitida em duplicidade", as_of=dt.date(2026, 3, 4))
    unknown = local_psp.pay(
        f"OUTORGA{olimpia.ibge_code}2026000009999", amount="10.00", at=_at(4), notify=False
    )
    other_revenue = local_psp.pay("IPTU2026CARNE000000000000001", amount="99.00", at=_at(4), notify=False)
    answer = _webhook(Client(), olimpia, [paid_before_removal, unknown, other_revenue]).json()
    assert (answer["conferencia"], answer["outras_receitas"]) == (2, 1)
    reasons = sorted(PaymentReview.objects.values_list("reason", flat=True))
    assert reasons == [ReviewReason.CANCELLED, ReviewReason.UNKNOWN]


def test_the_daily_reconciliation_settles_what_the_webhook_missed(
    olimpia: Municipality, olimpia_permit_fee: Any, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    guides = [_issue(olimpia, django_capture_on_commit_callbacks, origin_id=n) for n in (1, 2, 3)]
    now = timezone.now()
    for guide in guides:
        local_psp.pay(guide.pix_charge.txid, at=now - dt.timedelta(hours=1), notify=False)
    local_psp.page_size = 2  # the list comes in two pages
    _webhook(Client(), olimpia, [local_psp.received[0]])
    call_command("pix_reconcile", "--days", "2", stdout=io.StringIO())
    assert set(PaymentGuide.objects.values_list("status", flat=True)) == {GuideStatus.PAID}
    assert list(PixReceived.objects.order_by("source").values_list("source", flat=True)) == [
        "reconciliation",
        "reconciliation",
        "webhook",
    ]
    pages = [c.path for c in local_psp.calls if c.path == "/api/v2/pix"]
    assert len(pages) == 2


def test_the_reconciliation_reports_a_psp_outage_loudly(olimpia: Municipality, local_psp: Any) -> None:
    local_psp.fail_next("GET", "/pix", "500")
    with pytest.raises(Exception, match="HTTP 500"):
        call_command("pix_reconcile", stdout=io.StringIO())


def test_finance_refunds_a_reviewed_pix_through_the_psp(
    charged: PaymentGuide,
    local_psp: Any,
    olimpia: Municipality,
    finance_olimpia: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    pix = local_psp.pay(charged.pix_charge.txid, amount="100.00", at=_at(10), notify=False)
    _webhook(Client(), olimpia, [pix])
    review = PaymentReview.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        payment_review_resolve(
            actor=finance_olimpia,
            review=review,
            decision="refund",
            note="Valor a menor",
            as_of=dt.date(2026, 3, 10),
        )
    review.refresh_from_db()
    assert review.status == ReviewStatus.REFUND and review.resolved_by == finance_olimpia
    refund_calls = [c for c in local_psp.calls if "/devolucao/" in c.path]
    assert len(refund_calls) == 1 and refund_calls[0].body == {"valor": "100.00"}
    assert AuditEvent.objects.filter(action="payment_review.refund_sent").exists()
    assert PaymentReview.objects.get().refund_outcome == "devolução pedida ao banco: EM_PROCESSAMENTO"


def test_finance_settles_a_reviewed_pix_on_the_guide_with_a_justification(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality, finance_olimpia: Any
) -> None:
    client = client_for(finance_olimpia)
    pix = local_psp.pay(charged.pix_charge.txid, amount="149.99", at=_at(10), notify=False)
    _webhook(Client(), olimpia, [pix])
    review = PaymentReview.objects.get()
    url = f"/municipios/{olimpia.ibge_code}/financeiro/conferencia/{review.pk}/decidir/"
    refused = client.post(url, {"decision": "settle", "note": ""})
    assert PaymentReview.objects.get().status == ReviewStatus.OPEN and refused.status_code in (200, 302, 400)
    client.post(url, {"decision": "settle", "note": "Diferença de arredondamento do banco"})
    guide = PaymentGuide.objects.get(pk=charged.pk)
    assert guide.status == GuideStatus.PAID and guide.payment.amount_brl == Decimal("149.99")
    assert PaymentReview.objects.get().status == ReviewStatus.SETTLED


def test_a_webhook_over_mtls_needs_the_certificate_the_proxy_verified(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(f"OUTORGA_PIX_WEBHOOK_{olimpia.ibge_code}_SECRET")
    monkeypatch.setenv(f"OUTORGA_PIX_WEBHOOK_{olimpia.ibge_code}_CLIENT_CERT_SHA256", "AB:CD:EF")
    pix = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(10), notify=False)
    url, body = f"/pix/webhook/{olimpia.ibge_code}/pix", json.dumps({"pix": [pix]})
    client = Client()
    wrong = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_X_SSL_CLIENT_VERIFY="SUCCESS",
        HTTP_X_SSL_CLIENT_FINGERPRINT="abcd00",
    )
    unverified = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_X_SSL_CLIENT_VERIFY="FAILED",
        HTTP_X_SSL_CLIENT_FINGERPRINT="abcdef",
    )
    assert (wrong.status_code, unverified.status_code) == (401, 401) and PixReceived.objects.count() == 0
    right = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_X_SSL_CLIENT_VERIFY="SUCCESS",
        HTTP_X_SSL_CLIENT_FINGERPRINT="ab:cd:ef",
    )
    assert right.status_code == 200 and PaymentGuide.objects.get(pk=charged.pk).status == GuideStatus.PAID


def test_a_payment_the_origin_refuses_is_kept_for_review_not_lost(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality
) -> None:
    from apps.web.refusals import refuse

    def application_cannot_move(*, guide: PaymentGuide, payment: Payment, actor: Any, as_of: dt.date) -> None:
        raise refuse("guide", "O requerimento já foi arquivado.")

    pix = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(10), notify=False)
    with payment_handlers_replaced({"application": application_cannot_move}):
        assert _webhook(Client(), olimpia, [pix]).status_code == 200
    review = PaymentReview.objects.get()
    assert review.reason == ReviewReason.REFUSED and "já foi arquivado" in review.detail
    assert PixReceived.objects.get().amount_brl == Decimal("150.00")
    assert PaymentGuide.objects.get(pk=charged.pk).status == GuideStatus.OPEN and Payment.objects.count() == 0


def test_a_malformed_item_is_answered_400_and_the_good_ones_are_kept(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality
) -> None:
    pix = local_psp.pay(charged.pix_charge.txid, amount="150.00", at=_at(10), notify=False)
    response = _webhook(Client(), olimpia, [pix, {"endToEndId": "curto", "valor": "1"}])
    assert response.status_code == 400 and response.json()["baixados"] == 1
    assert "endToEndId ausente ou inválido" in response.json()["erros"][0]


def test_the_administrator_sets_the_charge_terms_with_their_article(
    olimpia: Municipality, admin_olimpia_client: Client, finance_olimpia_client: Client
) -> None:
    url = f"/municipios/{olimpia.ibge_code}/financeiro/configuracao/cobranca-pix/"
    assert finance_olimpia_client.get(url).status_code == 404
    data = {
        "fine_percent": "2,00",
        "interest_percent_month": "1,00",
        "discount_percent": "0",
        "discount_days_before_due": "0",
        "days_payable_after_due": "30",
        "cite": "",
    }
    refused = admin_olimpia_client.post(url, data)
    assert refused.status_code == 400 and "Este campo é obrigatório" in refused.content.decode()
    page = admin_olimpia_client.get(url).content.decode()
    assert "ainda não tem banco (PSP) configurado" in page
    admin_olimpia_client.post(url, {**data, "cite": "LC nº 1/2010, art. 100"})
    from apps.finance.pix_models import PixChargeTerms

    assert PixChargeTerms.objects.get(municipality=olimpia).fine_percent == Decimal("2.00")


def test_revising_the_guide_revises_the_charge_at_the_psp(
    charged: PaymentGuide, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.db import transaction

    from apps.finance.hooks import guide_changed

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        PaymentGuide.objects.filter(pk=charged.pk).update(
            amount_brl=Decimal("160.00"), due_on=dt.date(2026, 3, 20)
        )
        guide_changed(PaymentGuide.objects.get(pk=charged.pk))
    sent = local_psp.charges[charged.pix_charge.txid]
    assert sent["valor"]["original"] == "160.00" and sent["calendario"]["dataDeVencimento"] == "2026-03-20"
    assert sent["revisao"] == 1 and PixCharge.objects.get(guide=charged).revision == 1


def test_the_webhook_is_registered_at_the_psp_by_command(
    charged: PaymentGuide, local_psp: Any, olimpia: Municipality
) -> None:
    out = io.StringIO()
    call_command(
        "pix_webhook_register",
        "--municipality",
        olimpia.ibge_code,
        "--base-url",
        "https://outorga.example",
        stdout=out,
    )
    assert local_psp.webhook_url == f"https://outorga.example/pix/webhook/{olimpia.ibge_code}"
    assert local_psp.webhook_key == "123e4567-e12b-12d1-a456-426655440000"
    assert "Aviso cadastrado no banco" in out.getvalue()


def test_a_token_the_psp_no_longer_accepts_is_renewed_on_the_retry(
    charged: PaymentGuide, local_psp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    local_psp.tokens.clear()  # the PSP revoked every token it gave
    with django_capture_on_commit_callbacks(execute=True):
        guide_cancel(actor=None, guide=charged, reason="Emitida por engano", as_of=dt.date(2026, 3, 3))
    charge = PixCharge.objects.get(guide=charged)
    assert charge.last_error.startswith("HTTP 401") and charge.confirmed == "active"
    charge = pix_charge_sync(charge_id=charge.pk, now=timezone.now() + dt.timedelta(minutes=2))
    assert charge.confirmed == "removed" and charge.last_error == ""
    assert [c.path for c in local_psp.calls].count("/oauth/token") == 2
