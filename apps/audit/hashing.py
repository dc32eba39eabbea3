"""Canonical form and SHA-256 of an audit event. Changing this breaks every existing chain."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder


def to_json_safe(value: Any) -> Any:
    """What a JSONField will give back after a round trip (Decimal/date become strings)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def canonical_timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_hash(fields: dict[str, Any], prev_hash: str) -> str:
    payload = dict(fields, prev_hash=prev_hash)
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def hashed_fields(event: Any) -> dict[str, Any]:
    """The fields covered by the hash, read from an AuditEvent (saved or about to be)."""
    return {
        "chain": event.chain,
        "seq": event.seq,
        "occurred_at": canonical_timestamp(event.occurred_at),
        "municipality_id": event.municipality_id,
        "actor_id": event.actor_id,
        "actor_name": event.actor_name,
        "action": event.action,
        "object_type": event.object_type,
        "object_id": event.object_id,
        "before": event.before,
        "after": event.after,
        "request_id": event.request_id,
    }
