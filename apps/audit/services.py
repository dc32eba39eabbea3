"""Writing audit events. Callers are services; they call audit_record inside their own transaction."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import models, transaction
from django.utils import timezone

from apps.audit.context import current_request_id
from apps.audit.hashing import hashed_fields, keyed_event_hash, to_json_safe
from apps.audit.keys import configured_keys
from apps.audit.minimization import minimize
from apps.audit.models import GLOBAL_CHAIN, AuditEvent, HashScheme

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from apps.tenancy.models import Municipality

SYSTEM_ACTOR_NAME = "sistema"
PERSONAL_DATA_READ = "personal_data.read"


class AuditOutsideTransactionError(RuntimeError):
    """audit_record was called in autocommit mode: the event could outlive a failed change."""


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    municipality: Municipality | None,
    action: str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    request_id: str | None = None,
) -> AuditEvent:
    """Append one event to the municipality's chain, in the caller's transaction.

    Personal fields of before/after are minimized (apps.audit.minimization) before anything is stored, and
    the event is HMAC-signed with the current audit key. The request id defaults to the one
    RequestIdMiddleware put in context for this request.
    """
    if not transaction.get_connection().in_atomic_block:
        raise AuditOutsideTransactionError(
            "audit_record must run inside the caller's transaction.atomic block"
        )
    if obj is not None:
        object_type, object_id = obj._meta.label_lower, str(obj.pk)
    if not object_type:
        raise ValueError("audit_record needs obj or object_type")
    if request_id is None:
        request_id = current_request_id()
    keys = configured_keys()
    before, after = minimize(to_json_safe(before), to_json_safe(after), keys)
    chain = municipality.ibge_code if municipality is not None else GLOBAL_CHAIN
    head = _lock_chain_head(chain)
    event = AuditEvent(
        occurred_at=timezone.now(), municipality=municipality, chain=chain,
        seq=(head.seq + 1) if head else 1, action=action, object_type=object_type, object_id=object_id,
        before=before, after=after, request_id=request_id, prev_hash=head.hash if head else "",
        hash_scheme=HashScheme.HMAC_SHA256, key_id=keys.current_id, **_actor_fields(actor),
    )  # fmt: skip
    event.hash = keyed_event_hash(
        hashed_fields(event), event.prev_hash, key_id=keys.current_id, secret=keys.current_secret
    )
    event.save(force_insert=True)
    return event


def _lock_chain_head(chain: str) -> AuditEvent | None:
    """Serialize writers of one chain until the caller's transaction ends, then read its head.

    PostgreSQL: a transaction-scoped advisory lock per chain. Locking the head row with
    SELECT ... FOR UPDATE is not enough: a writer queued behind it wakes up still holding the
    *old* head (READ COMMITTED re-checks the row, it does not re-run ORDER BY/LIMIT), and an empty
    chain has no row to lock at all. SQLite runs every transaction as IMMEDIATE (settings), so
    writers are already serialized there. The unique (chain, seq) constraint stays as the last line.
    """
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_advisory_lock_key(chain)])
    return AuditEvent.objects.filter(chain=chain).order_by("-seq").first()


def _advisory_lock_key(chain: str) -> int:
    digest = hashlib.sha256(f"outorga.audit.chain:{chain}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _actor_fields(actor: AbstractBaseUser | AnonymousUser | None) -> dict[str, Any]:
    if actor is None or not actor.is_authenticated:
        return {"actor_id": None, "actor_name": SYSTEM_ACTOR_NAME}
    name = getattr(actor, "display_name", "") or actor.get_username()
    return {"actor_id": actor.pk, "actor_name": name}


def audit_personal_data_read(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    municipality: Municipality | None,
    obj: models.Model,
    fields: Iterable[str],
    request_id: str,
) -> AuditEvent:
    """Record that a staff member was shown personal data (CPF, CNH, address, phone) of `obj`.

    It has its own small transaction because reads do not run in one.
    """
    with transaction.atomic():
        return audit_record(
            actor=actor, municipality=municipality, action=PERSONAL_DATA_READ, obj=obj,
            after={"fields": sorted(set(fields))}, request_id=request_id,
        )  # fmt: skip
