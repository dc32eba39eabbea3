"""Canonical form and hash of an audit event. Changing the canonical form breaks every existing chain.

New events are HMAC-SHA256 with a key kept outside the database (apps.audit.keys), and the scheme and key
id are part of what is signed, so an event cannot be passed off under another key or as a keyless one.
Events written before the keyed chain keep their plain SHA-256 and verify as they were written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
from datetime import UTC, datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from apps.audit.keys import AuditKeys
from apps.audit.models import HashScheme


class UnknownHashSchemeError(ValueError):
    pass


_JSON_SCALARS = frozenset((str, int, bool, float, type(None)))


def to_json_safe(value: Any) -> Any:
    """What a JSONField will give back after a round trip (Decimal/date become strings).

    The plain shapes an audit payload is made of (dicts with text keys, lists, text, numbers, dates) are
    converted in place of a dumps/loads round trip, which a batch of thousands of events would pay for each;
    anything else (Decimal, datetime, enum members, other keys) takes the round trip itself."""
    kind = type(value)
    if kind in _JSON_SCALARS:
        return value
    if kind is dict and all(type(key) is str for key in value):
        if all(type(item) in _JSON_SCALARS for item in value.values()):
            return dict(value)
        return {key: to_json_safe(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [to_json_safe(item) for item in value]
    if kind is dt.date:
        return value.isoformat()  # what DjangoJSONEncoder writes for a date
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def canonical_timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False), without building an encoder
# for every event (json.dumps does when given options): the same bytes.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# The same encoder's C core, built once: JSONEncoder.encode builds it anew for every call, which is most of the
# cost of a batch's small before/after. No circular-reference marks (an audit payload is a tree).
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_CANONICAL_PARTS = (
    _c_make_encoder(
        None, _CANONICAL.default, json.encoder.encode_basestring, None, ":", ",", True, False, True
    )
    if _c_make_encoder is not None
    else None
)


def _canonical_text(value: Any) -> str:
    if type(value) is str:
        return json.encoder.encode_basestring(value)  # what _CANONICAL (ensure_ascii=False) writes for text
    if value is None:
        return "null"
    if _CANONICAL_PARTS is None:
        return _CANONICAL.encode(value)
    return "".join(_CANONICAL_PARTS(value, 0))


def canonical_bytes(payload: dict[str, Any]) -> bytes:
    return _CANONICAL.encode(payload).encode("utf-8")


def legacy_event_hash(fields: dict[str, Any], prev_hash: str) -> str:
    """The keyless SHA-256 of events written before the keyed chain (kept only to verify them)."""
    return hashlib.sha256(canonical_bytes(dict(fields, prev_hash=prev_hash))).hexdigest()


def keyed_event_hash(fields: dict[str, Any], prev_hash: str, *, key_id: str, secret: bytes) -> str:
    payload = dict(fields, prev_hash=prev_hash, hash_scheme=HashScheme.HMAC_SHA256.value, key_id=key_id)
    return sign(payload, secret)


def sign(payload: dict[str, Any], secret: bytes) -> str:
    return hmac.digest(secret, canonical_bytes(payload), "sha256").hex()  # hmac.new(…).hexdigest(), one call


def signatures_match(expected: str, found: str) -> bool:
    return hmac.compare_digest(expected.encode(), found.encode())


def compute_event_hash(event: Any, keys: AuditKeys) -> str:
    """The hash the event must carry, by the scheme and key id it recorded (UnknownAuditKeyError if gone)."""
    fields = hashed_fields(event)
    if event.hash_scheme == HashScheme.HMAC_SHA256:
        return keyed_event_hash(
            fields, event.prev_hash, key_id=event.key_id, secret=keys.secret(event.key_id)
        )
    if event.hash_scheme == HashScheme.LEGACY_SHA256:
        return legacy_event_hash(fields, event.prev_hash)
    raise UnknownHashSchemeError(event.hash_scheme)


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


# The fields each event of a batch sets for itself; every other hashed field is the batch's own.
_PER_EVENT = ("seq", "action", "object_type", "object_id", "before", "after", "prev_hash")
_SLOT = "\ue000slot\ue000"  # a private-use mark no field of the template holds, encoded as itself


class BatchSigner:
    """keyed_event_hash for many events that share every field but their own (_PER_EVENT), without encoding the
    shared ones for each: canonical_bytes of the payload is the shared fields' text, encoded once with a slot
    in place of each event's own field (sort_keys puts the slots where they belong), and the event's values
    encoded into the slots. `sign` also returns the canonical text of before/after, so a writer stores the
    JSON it signed without serializing it again. Byte-identical to keyed_event_hash (tested shape by shape)."""

    def __init__(self, shared: dict[str, Any], *, key_id: str, secret: bytes) -> None:
        template = dict(shared, hash_scheme=HashScheme.HMAC_SHA256.value, key_id=key_id)
        template.update((name, f"{_SLOT}{name}") for name in _PER_EVENT)
        text = _CANONICAL.encode(template)
        pieces = text.split(f'"{_SLOT}')
        self._fixed = [pieces[0]]
        order = []
        for piece in pieces[1:]:
            name, rest = piece.split('"', 1)
            order.append(name)
            self._fixed.append(rest)
        # The slots come in the order sign() fills them (sorted names), each once, and nothing else is a slot.
        # A shared field holding the mark itself (no real actor or request does) is signed the plain way.
        self._templated = order == sorted(_PER_EVENT) and _SLOT not in "".join(self._fixed)
        self._shared, self._key_id, self._secret = shared, key_id, secret
        self._quoted: dict[str, str] = {}  # action and object type: a handful per batch

    def _quote(self, text: str) -> str:
        quoted = self._quoted.get(text)
        if quoted is None:
            quoted = self._quoted[text] = _CANONICAL.encode(text)
        return quoted

    def sign(
        self,
        *,
        seq: int,
        action: str,
        object_type: str,
        object_id: str,
        before: Any,
        after: Any,
        prev_hash: str,
    ) -> tuple[str, str, str]:
        """The event's signature, and the canonical JSON text of its before and after ("null" for None)."""
        encode = _canonical_text
        before_text, after_text = encode(before), encode(after)
        if not self._templated:
            fields = dict(self._shared, seq=seq, action=action, object_type=object_type, object_id=object_id)
            fields.update(before=before, after=after)
            signed = keyed_event_hash(fields, prev_hash, key_id=self._key_id, secret=self._secret)
            return signed, before_text, after_text
        f = self._fixed
        message = "".join(
            (
                f[0],
                self._quote(action),
                f[1],
                after_text,
                f[2],
                before_text,
                f[3],
                encode(object_id),
                f[4],
                self._quote(object_type),
                f[5],
                encode(prev_hash),
                f[6],
                repr(seq) if type(seq) is int else encode(seq),  # what the encoder writes for an int
                f[7],
            )
        ).encode("utf-8")
        return hmac.digest(self._secret, message, "sha256").hex(), before_text, after_text
