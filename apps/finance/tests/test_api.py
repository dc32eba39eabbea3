from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import timezone

from apps.finance.choices import GuideStatus
from apps.finance.models import FeeSchedule, Payment, PaymentGuide
from apps.finance.tests.conftest import issue_permit_guide
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db
GUIDES = "/api/v1/finance/guides/"


@pytest.fixture
def guide(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> PaymentGuide:
    return issue_permit_guide(olimpia, day=timezone.localdate())


def payment_body(guide: PaymentGuide, **overrides: str) -> dict[str, str]:
    body = {
        "paid_on": guide.issued_on.isoformat(),
        "amount_brl": "150.00",
        "method": "pix",
        "reference": "E2E1",
    }
    body.update(overrides)
    return body


def test_finance_lists_and_reads_guides_without_the_payer_document(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    body = finance_olimpia_client.get(GUIDES).json()
    assert [row["number"] for row in body["results"]] == [guide.number]
    detail = finance_olimpia_client.get(f"{GUIDES}{guide.pk}/").json()
    assert detail["amount_brl"] == "150.00" and detail["status"] == "open" and detail["payment"] is None
    assert "payer_document" not in detail


def test_the_outsider_gets_an_empty_list_and_404(outsider_client: Client, guide: PaymentGuide) -> None:
    assert outsider_client.get(GUIDES).json()["count"] == 0
    assert outsider_client.get(f"{GUIDES}{guide.pk}/").status_code == 404
    assert outsider_client.post(f"{GUIDES}{guide.pk}/payment/", payment_body(guide)).status_code == 404


def test_another_municipalitys_finance_user_sees_nothing(
    finance_patrocinio_client: Client, guide: PaymentGuide
) -> None:
    assert finance_patrocinio_client.get(GUIDES).json()["count"] == 0
    assert finance_patrocinio_client.get(f"{GUIDES}{guide.pk}/").status_code == 404


def test_anonymous_requests_are_refused(client: Client, guide: PaymentGuide) -> None:
    assert client.get(GUIDES).status_code == 403


def test_finance_registers_a_payment(finance_olimpia_client: Client, guide: PaymentGuide) -> None:
    response = finance_olimpia_client.post(f"{GUIDES}{guide.pk}/payment/", payment_body(guide))
    assert response.status_code == 201
    assert response.json()["status"] == GuideStatus.PAID
    assert response.json()["payment"]["amount_brl"] == "150.00"


def test_a_second_payment_is_refused_naming_the_field(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    finance_olimpia_client.post(f"{GUIDES}{guide.pk}/payment/", payment_body(guide))
    response = finance_olimpia_client.post(f"{GUIDES}{guide.pk}/payment/", payment_body(guide))
    assert response.status_code == 400
    assert "não se paga duas vezes" in response.json()["guide"][0]
    assert Payment.objects.count() == 1


def test_a_wrong_amount_is_refused(finance_olimpia_client: Client, guide: PaymentGuide) -> None:
    response = finance_olimpia_client.post(
        f"{GUIDES}{guide.pk}/payment/", payment_body(guide, amount_brl="15.00")
    )
    assert response.status_code == 400
    assert response.json()["amount_brl"][0].startswith("Valor pago: R$ 15,00 difere")
    assert not Payment.objects.exists()


def test_an_analyst_reads_but_cannot_register_payments(
    analyst_olimpia_client: Client, guide: PaymentGuide
) -> None:
    assert analyst_olimpia_client.get(f"{GUIDES}{guide.pk}/").status_code == 200
    assert analyst_olimpia_client.post(f"{GUIDES}{guide.pk}/payment/", payment_body(guide)).status_code == 404
    assert not Payment.objects.exists()


def test_the_list_filters_by_municipality_and_status(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    assert finance_olimpia_client.get(GUIDES, {"status": "paid"}).json()["count"] == 0
    assert finance_olimpia_client.get(GUIDES, {"municipality": "3533908"}).json()["count"] == 1


def test_the_openapi_schema_lists_the_finance_endpoints(client: Client) -> None:
    schema = json.loads(client.get("/api/v1/openapi.json").content)
    assert GUIDES in schema["paths"]
    assert "/api/v1/finance/guides/{id}/payment/" in schema["paths"]


def test_a_payment_on_a_non_numeric_guide_id_answers_404_not_500(finance_olimpia_client: Client) -> None:
    response = finance_olimpia_client.post(f"{GUIDES}abc/payment/", {}, content_type="application/json")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
