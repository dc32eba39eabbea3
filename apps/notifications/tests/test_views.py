"""The portal's list of notifications (unread count in the menu, marked read when seen), a notification of
another holder answering 404, and the staff list with how each e-mail went, gated per municipality."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from apps.notifications.events import notify_guide_issued
from apps.notifications.models import Notification
from apps.portal.tests.conftest import portal_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def guide(alice_case: Any, alice_permit: Any, make_guide: Callable[..., Any]) -> Any:
    return make_guide(alice_case, alice_permit)


def test_the_holder_sees_the_unread_count_then_the_list_marks_them_read(
    alice_client: Client, guide: Any
) -> None:
    menu = alice_client.get("/portal/").content.decode()
    assert 'data-unread="1"' in menu and "não lidos" in menu
    page = alice_client.get("/portal/avisos/").content.decode()
    assert f"Guia {guide.number} emitida" in page and "outorga-portal-card--unread" in page
    assert guide.legal_basis in page and f"/portal/avisos/{Notification.objects.get().pk}/" in page
    assert Notification.objects.get().read_at is not None
    again = alice_client.get("/portal/avisos/").content.decode()
    assert "outorga-portal-card--unread" not in again and 'data-unread="0"' in again


def test_opening_a_notification_leads_to_the_page_where_to_act(alice_client: Client, guide: Any) -> None:
    row = Notification.objects.get()
    response = alice_client.get(f"/portal/avisos/{row.pk}/")
    assert response.status_code == 302 and response["Location"] == f"/portal/pagamentos/{guide.pk}/"
    row.refresh_from_db()
    assert row.read_at is not None


def test_another_holder_and_a_driver_cannot_read_them(bob: Any, marcos: Any, guide: Any) -> None:
    row = Notification.objects.get()
    for account in (bob, marcos):
        client = portal_client(account)
        assert client.get(f"/portal/avisos/{row.pk}/").status_code == 404
        assert guide.number not in client.get("/portal/avisos/").content.decode()
    row.refresh_from_db()
    assert row.read_at is None


def test_staff_see_what_was_sent_and_how_the_email_went(
    analyst_olimpia_client: Client,
    agent_votuporanga_client: Client,
    outsider_client: Client,
    alice_case: Any,
    guide: Any,
) -> None:
    with transaction.atomic():
        notify_guide_issued(guide)  # seen again: still one
    ibge, operator = alice_case.operator.municipality.ibge_code, alice_case.operator
    url = f"/municipios/{ibge}/avisos/"
    holder_page = analyst_olimpia_client.get(
        f"/municipios/{ibge}/cadastro/autorizatarios/{operator.pk}/"
    ).content.decode()
    assert f'href="{url}?autorizatario={operator.pk}"' in holder_page
    page = analyst_olimpia_client.get(f"{url}?autorizatario={operator.pk}").content.decode()
    assert page.count("data-notification-id") == 1
    assert (
        f"Guia {guide.number} emitida" in page
        and "Na fila" in page
        and alice_case.operator.person.email in page
    )
    assert "Guia de pagamento emitida" in page and "não" in page  # kind in Portuguese; unread in the portal
    for client in (agent_votuporanga_client, outsider_client):
        assert client.get(url).status_code == 404
