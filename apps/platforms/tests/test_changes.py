"""Status-change feed (cursor) and signed webhook delivery with retries against a local HTTP server."""

from __future__ import annotations

import datetime as dt
import http.server
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from apps.licensing import services
from apps.licensing.models import Permit
from apps.platforms.models import PlatformCredential, StatusChange, WebhookDelivery
from apps.platforms.services import IssuedCredential, changes, webhooks
from apps.platforms.tests.conftest import url
from apps.tenancy.models import Municipality

pytestmark = pytest.mark.django_db


def test_the_feed_lists_issue_suspension_and_revocation_in_order(
    api: Client, patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    until = today + dt.timedelta(days=3)
    services.permit_suspend(permit=patrocinio_permit, actor=None, as_of=today, until=until, reason="Auto 7")
    first = api.get(url(patrocinio.ibge_code, "changes/?since=0&limit=1")).json()
    assert [c["kind"] for c in first["results"]] == ["issued"] and first["has_more"] is True
    rest = api.get(url(patrocinio.ibge_code, f"changes/?since={first['next_since']}")).json()
    assert [(c["kind"], c["suspended_until"]) for c in rest["results"]] == [("suspended", until.isoformat())]
    assert rest["results"][0]["plate"] == patrocinio_permit.vehicle.plate
    Permit.objects.filter(pk=patrocinio_permit.pk).update(state="active", suspended_until=None)
    services.permit_revoke(permit=patrocinio_permit, actor=None, as_of=today, reason="Cassação")
    last = api.get(url(patrocinio.ibge_code, f"changes/?since={rest['next_since']}")).json()
    assert [c["kind"] for c in last["results"]] == ["revoked"] and last["has_more"] is False


def test_an_expiry_the_sweep_made_without_audit_rows_is_in_the_feed_once(
    patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    Permit.objects.filter(pk=patrocinio_permit.pk).update(
        valid_from=today - dt.timedelta(days=400), valid_until=today - dt.timedelta(days=2)
    )
    changes.capture(patrocinio, as_of=today)
    changes.capture(patrocinio, as_of=today)
    expired = StatusChange.objects.filter(kind="expired")
    assert [(c.permit_id, c.effective_on) for c in expired] == [
        (patrocinio_permit.pk, today - dt.timedelta(days=1))
    ]


def test_a_bad_cursor_is_refused(api: Client, patrocinio: Municipality) -> None:
    response = api.get(url(patrocinio.ibge_code, "changes/?since=-1"))
    assert (response.status_code, response.json()["code"]) == (400, "parameter_invalid")


class Receiver(http.server.BaseHTTPRequestHandler):
    received: list[tuple[bytes, str]] = []
    fail_next = 0

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if Receiver.fail_next:
            Receiver.fail_next -= 1
            self.send_response(503)
        else:
            Receiver.received.append((body, self.headers[webhooks.SIGNATURE_HEADER]))
            self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return


@pytest.fixture
def receiver() -> Iterator[str]:
    server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    Receiver.received, Receiver.fail_next = [], 0
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def test_webhooks_are_signed_retried_with_backoff_and_delivered_once(
    issued: IssuedCredential,
    patrocinio: Municipality,
    patrocinio_permit: Permit,
    receiver: str,
    today: dt.date,
) -> None:
    PlatformCredential.objects.filter(pk=issued.credential.pk).update(webhook_url=receiver)
    changes.capture(patrocinio, as_of=today)
    start = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
    assert webhooks.enqueue(issued.credential, now=start) == 1
    Receiver.fail_next = 1
    assert webhooks.deliver_due(now=start).retried == 1
    delivery = WebhookDelivery.objects.get()
    assert (delivery.attempts, delivery.next_attempt_at, delivery.last_error) == (
        1,
        start + webhooks.BACKOFF_BASE,
        "HTTP 503",
    )
    assert webhooks.deliver_due(now=start + dt.timedelta(seconds=30)).retried == 0  # not due yet
    later = start + dt.timedelta(minutes=1)
    assert webhooks.deliver_due(now=later).delivered == 1
    assert webhooks.deliver_due(now=later + dt.timedelta(hours=1)).delivered == 0
    ((body, signature),) = Receiver.received
    assert (
        json.loads(body)["kind"] == "issued" and json.loads(body)["permit_number"] == patrocinio_permit.number
    )
    assert webhooks.verify(issued.webhook_secret, body, signature, now=int(later.timestamp()))
    assert not webhooks.verify("wrong-secret", body, signature, now=int(later.timestamp()))
    assert not webhooks.verify(issued.webhook_secret, body, signature, now=int(later.timestamp()) + 3600)


def test_a_dead_receiver_is_given_up_after_the_last_attempt(
    issued: IssuedCredential, patrocinio: Municipality, patrocinio_permit: Permit, today: dt.date
) -> None:
    changes.capture(patrocinio, as_of=today)
    now = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)
    webhooks.enqueue(issued.credential, now=now)  # fixture URL: port 9, nobody listens
    for _ in range(webhooks.MAX_ATTEMPTS):
        webhooks.deliver_due(now=now)
        now = WebhookDelivery.objects.get().next_attempt_at
    delivery = WebhookDelivery.objects.get()
    assert (delivery.state, delivery.attempts) == ("failed", webhooks.MAX_ATTEMPTS)
    assert delivery.last_error.startswith("rede")


def test_the_command_captures_queues_and_delivers(
    issued: IssuedCredential, patrocinio_permit: Permit, receiver: str, capsys: Any
) -> None:
    PlatformCredential.objects.filter(pk=issued.credential.pk).update(webhook_url=receiver)
    call_command("platform_webhooks_deliver")
    assert "entregues: 1" in capsys.readouterr().out
    assert len(Receiver.received) == 1
