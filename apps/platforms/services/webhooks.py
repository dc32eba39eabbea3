"""Webhook delivery of status changes, signed with HMAC-SHA256, retried with exponential backoff.

Header `X-Outorga-Signature: t=<unix seconds>,v1=<hex>` where v1 = HMAC-SHA256(secret, "<t>.<body>"): the
timestamp is signed too, so a captured request replayed later is recognisable by the receiver. `now` is an
input (the command passes the clock), which keeps the backoff testable.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import urllib.error
import urllib.request
from dataclasses import dataclass

from django.db import transaction

from apps.platforms.choices import DeliveryState
from apps.platforms.models import PlatformCredential, StatusChange, WebhookDelivery
from apps.platforms.services.changes import change_to_dict

MAX_ATTEMPTS = 8
BACKOFF_BASE = dt.timedelta(minutes=1)
TIMEOUT_SECONDS = 10
SIGNATURE_HEADER = "X-Outorga-Signature"


def sign(secret: str, body: bytes, timestamp: int) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"


def verify(secret: str, body: bytes, header: str, *, now: int, tolerance: int = 300) -> bool:
    """What a receiver does (documented for platforms; used by our tests)."""
    parts = dict(item.split("=", 1) for item in header.split(",") if "=" in item)
    if not parts.get("t", "").isdigit() or abs(now - int(parts["t"])) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, body, int(parts["t"])), header)


@transaction.atomic
def enqueue(credential: PlatformCredential, *, now: dt.datetime) -> int:
    """Queue every change of the credential's municipality it has not been sent yet."""
    row = PlatformCredential.objects.select_for_update().get(pk=credential.pk)
    changes = list(
        StatusChange.objects.filter(municipality_id=row.municipality_id, pk__gt=row.webhook_cursor)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if not changes:
        return 0
    WebhookDelivery.objects.bulk_create(
        [WebhookDelivery(credential=row, change_id=pk, next_attempt_at=now) for pk in changes],
        ignore_conflicts=True,
    )
    PlatformCredential.objects.filter(pk=row.pk).update(webhook_cursor=changes[-1])
    return len(changes)


@dataclass(frozen=True)
class DeliveryOutcome:
    delivered: int = 0
    retried: int = 0
    failed: int = 0


def deliver_due(*, now: dt.datetime) -> DeliveryOutcome:
    due = (
        WebhookDelivery.objects.filter(state=DeliveryState.PENDING, next_attempt_at__lte=now)
        .filter(credential__revoked_at__isnull=True)
        .select_related("credential", "change", "credential__municipality")
        .order_by("next_attempt_at", "pk")
    )
    counts: dict[str, int] = {DeliveryState.DELIVERED: 0, DeliveryState.PENDING: 0, DeliveryState.FAILED: 0}
    for delivery in due:
        counts[_attempt(delivery, now=now)] += 1
    return DeliveryOutcome(
        counts[DeliveryState.DELIVERED], counts[DeliveryState.PENDING], counts[DeliveryState.FAILED]
    )


def payload(delivery: WebhookDelivery) -> bytes:
    body = change_to_dict(delivery.change) | {"municipality_ibge": delivery.credential.municipality.ibge_code}
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def _attempt(delivery: WebhookDelivery, *, now: dt.datetime) -> str:
    error = _post(delivery.credential, payload(delivery), now=now)
    delivery.attempts += 1
    if error is None:
        delivery.state, delivery.delivered_at, delivery.last_error = DeliveryState.DELIVERED, now, ""
    elif delivery.attempts >= MAX_ATTEMPTS:
        delivery.state, delivery.last_error = DeliveryState.FAILED, error
    else:
        delivery.next_attempt_at = now + BACKOFF_BASE * 2 ** (delivery.attempts - 1)
        delivery.last_error = error
    delivery.save(update_fields=["state", "attempts", "next_attempt_at", "last_error", "delivered_at"])
    return delivery.state


def _post(credential: PlatformCredential, body: bytes, *, now: dt.datetime) -> str | None:
    """None when the receiver answered 2xx; otherwise a short description of what went wrong."""
    request = urllib.request.Request(
        credential.webhook_url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(credential.webhook_secret, body, int(now.timestamp())),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # noqa: S310 (URL set by staff)
            return None if 200 <= response.status < 300 else f"HTTP {response.status}"
    except urllib.error.HTTPError as exc:
        return f"HTTP {exc.code}"
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        return f"rede: {exc}"[:300]
