"""Registering a payment asks for a fresh password and code by every door: the form, the staff API and htmx
(issue 28, item 1; the refusal is the service's own, apps.accounts.stepup)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.accounts.stepup import API_REAUTHENTICATION_MESSAGE
from apps.accounts.testing import make_confirmation_stale
from apps.finance.models import FeeSchedule, Payment, PaymentGuide
from apps.finance.tests.conftest import issue_permit_guide
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


@pytest.fixture
def guide(olimpia: Municipality, olimpia_permit_fee: FeeSchedule) -> PaymentGuide:
    return issue_permit_guide(olimpia, day=timezone.localdate())


def _body(guide: PaymentGuide) -> dict[str, str]:
    return {
        "paid_on": guide.issued_on.isoformat(),
        "amount_brl": "150.00",
        "method": "pix",
        "reference": "E1",
    }


def test_the_api_refuses_a_payment_from_a_stale_session_with_403(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    make_confirmation_stale(finance_olimpia_client)
    response = finance_olimpia_client.post(f"/api/v1/finance/guides/{guide.pk}/payment/", _body(guide))
    assert response.status_code == 403
    assert response.json()["detail"] == API_REAUTHENTICATION_MESSAGE
    assert not Payment.objects.exists()


def test_the_api_registers_it_right_after_the_confirmation(
    finance_olimpia_client: Client, guide: PaymentGuide
) -> None:
    response = finance_olimpia_client.post(f"/api/v1/finance/guides/{guide.pk}/payment/", _body(guide))
    assert response.status_code == 201
    assert Payment.objects.count() == 1


def test_the_form_sends_a_stale_session_to_confirm_and_stores_nothing(
    finance_olimpia_client: Client, guide: PaymentGuide, olimpia: Municipality
) -> None:
    url = reverse("finance:payment_register", args=[olimpia.ibge_code, guide.pk])
    make_confirmation_stale(finance_olimpia_client)
    assert finance_olimpia_client.get(url)["Location"].startswith(reverse("reauthenticate"))
    posted = finance_olimpia_client.post(
        url, {**_body(guide), "paid_on": guide.issued_on.strftime("%d/%m/%Y")}
    )
    assert posted.status_code == 302 and posted["Location"].startswith(reverse("reauthenticate"))
    assert not Payment.objects.exists()


def test_an_htmx_request_is_sent_to_confirm_as_a_whole_page(
    finance_olimpia_client: Client, guide: PaymentGuide, olimpia: Municipality
) -> None:
    url = reverse("finance:payment_register", args=[olimpia.ibge_code, guide.pk])
    make_confirmation_stale(finance_olimpia_client)
    posted = finance_olimpia_client.post(url, _body(guide), HTTP_HX_REQUEST="true")
    assert posted["HX-Redirect"].startswith(reverse("reauthenticate"))
    assert not Payment.objects.exists()


def test_the_role_is_checked_before_the_prompt(
    analyst_olimpia_client: Client, guide: PaymentGuide, olimpia: Municipality
) -> None:
    make_confirmation_stale(analyst_olimpia_client)
    url = reverse("finance:payment_register", args=[olimpia.ibge_code, guide.pk])
    assert analyst_olimpia_client.get(url).status_code == 404
    assert analyst_olimpia_client.post(url, _body(guide)).status_code == 404
    api = f"/api/v1/finance/guides/{guide.pk}/payment/"
    assert analyst_olimpia_client.post(api, _body(guide)).status_code == 404


def test_a_portal_account_gets_403_from_the_staff_api(guide: PaymentGuide) -> None:
    holder: User = user_create(
        actor=None, username="portal.op", password="frase-do-portal-1", full_name="Op", kind="operator"
    )
    client = Client()
    client.force_login(holder)
    response = client.get("/api/v1/finance/guides/")
    assert response.status_code == 403
    assert "só para servidores" in response.json()["detail"]
    assert client.get("/api/v1/registry/drivers/").status_code == 403
