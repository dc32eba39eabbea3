"""Writing audit events. Callers are services; they call audit_record inside their own transaction."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

from django.db import models, transaction
from django.utils import timezone

from apps.accounts.actors import Actor, actor_name, actor_user
from apps.audit import observers
from apps.audit.context import current_request_id
from apps.audit.hashing import BatchSigner, hashed_fields, keyed_event_hash, to_json_safe
from apps.audit.keys import configured_keys
from apps.audit.minimization import FlatPayloads, minimize
from apps.audit.models import GLOBAL_CHAIN, AuditEvent, HashScheme
from outorga.bulkinsert import insert_parts, insert_rows

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from apps.tenancy.models import Municipality

PERSONAL_DATA_READ = "personal_data.read"
PERSONAL_DATA_EXPORT = "personal_data.export"
PERSONAL_DATA_LIST_EXPORT = "personal_data.list_export"


class AuditOutsideTransactionError(RuntimeError):
    """audit_record was called in autocommit mode: the event could outlive a failed change."""


def audit_record(
    *,
    actor: Actor,
    municipality: Municipality | None,
    action: str,
    obj: models.Model | None = None,
    object_type: str = "",
    object_id: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    request_id: str | None = None,
    along: models.Model | None = None,
    locked: ChainLock | None = None,
) -> AuditEvent:
    """Append one event to the municipality's chain, in the caller's transaction.

    Personal fields of before/after are minimized (apps.audit.minimization) before anything is stored, and
    the event is HMAC-signed with the current audit key. The request id defaults to the one
    RequestIdMiddleware put in context for this request. `along`, a new row of the same change (a timeline
    line), is inserted with the event: in its statement on PostgreSQL, one round trip for both while the caller
    may hold a lock (a number's counter row); just before it elsewhere. `locked`, the chain's lock the caller
    already took with its own statement (ChainLock), spares the lock and the head read; it serves one event.
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
    head = locked.use(chain) if locked is not None else _lock_chain_head(chain)
    event = AuditEvent(
        occurred_at=timezone.now(),
        municipality=municipality,
        chain=chain,
        seq=(head.seq + 1) if head else 1,
        action=action,
        object_type=object_type,
        object_id=object_id,
        before=before,
        after=after,
        request_id=request_id,
        prev_hash=head.hash if head else "",
        hash_scheme=HashScheme.HMAC_SHA256,
        key_id=keys.current_id,
        **_actor_fields(actor),
    )
    event.hash = keyed_event_hash(
        hashed_fields(event), event.prev_hash, key_id=keys.current_id, secret=keys.current_secret
    )
    _insert_event(event, along)
    observers.recorded((object_type,), municipality.pk if municipality is not None else None)
    return event


class _Snapshotted(Protocol):
    """A model the trail records whole: its ``audit_snapshot()`` is the before/after of its events."""

    municipality: Municipality | None

    def audit_snapshot(self) -> dict[str, Any]: ...


_OWN_MUNICIPALITY: Any = object()  # audited_change's default: the row's own municipality


@contextmanager
def audited_change(
    row: models.Model,
    *,
    actor: Actor,
    action: str | Callable[[], str],
    municipality: Municipality | None = _OWN_MUNICIPALITY,
    extra: Mapping[str, Any] | Callable[[], Mapping[str, Any]] | None = None,
) -> Iterator[None]:
    """Record the change the block makes to ``row``: one event, ``before`` its snapshot as the block starts and
    ``after`` its snapshot as the block ends (plus the keys of ``extra``), on the chain of ``municipality`` (the
    row's own unless given), in the caller's transaction.

    The block changes and saves the row itself, so every write stays in the service that makes it (what
    tools/check_writes.py and tools/model_docs.py read). ``action`` and ``extra`` may be functions, called when
    the block ends: the outcome the block decided, a value it changed. A block that raises records nothing.
    """
    snapshotted = cast(_Snapshotted, row)
    before = snapshotted.audit_snapshot()
    yield
    audit_record(
        actor=actor,
        municipality=snapshotted.municipality if municipality is _OWN_MUNICIPALITY else municipality,
        action=action if isinstance(action, str) else action(),
        obj=row,
        before=before,
        after={**snapshotted.audit_snapshot(), **((extra() if callable(extra) else extra) or {})},
    )


@dataclass(frozen=True)
class AuditEntry:
    """One event of a batch (audit_record_batch): what changed on one row."""

    action: str
    object_type: str
    object_id: str
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None


def audit_record_batch(
    *,
    actor: Actor,
    municipality: Municipality | None,
    entries: Iterable[AuditEntry],
    request_id: str | None = None,
) -> int:
    """Append one event per entry to the municipality's chain under a single lock of its head, in the caller's
    transaction: a set-based change (the daily sweep) records every row it touched without one round trip per
    row. Each event is minimized and signed exactly as audit_record does; the chain is computed in one pass and
    the rows go in with one bulk insert (outorga.bulkinsert: COPY on PostgreSQL), no model instance per event.
    The rows are signed as the COPY takes them, so PostgreSQL stores the first while Python signs the next."""
    if not transaction.get_connection().in_atomic_block:
        raise AuditOutsideTransactionError(
            "audit_record_batch must run inside the caller's transaction.atomic block"
        )
    entries = list(entries)
    if not entries:
        return 0
    chain = municipality.ibge_code if municipality is not None else GLOBAL_CHAIN
    head = _lock_chain_head(chain)
    rows = _chained_rows(
        entries,
        chain=chain,
        municipality_id=municipality.pk if municipality is not None else None,
        head=(head.seq, head.hash) if head else (0, ""),
        actor=_actor_fields(actor),
        request_id=current_request_id() if request_id is None else request_id,
    )
    inserted = insert_rows(AuditEvent._meta.db_table, _BATCH_COLUMNS, rows)
    observers.recorded((entry.object_type for entry in entries), municipality.pk if municipality else None)
    return inserted


# The columns audit_record_batch writes, in the order _chained_rows gives their values.
_BATCH_COLUMNS = (
    "occurred_at",
    "municipality_id",
    "chain",
    "seq",
    "actor_id",
    "actor_name",
    "action",
    "object_type",
    "object_id",
    "before",
    "after",
    "request_id",
    "prev_hash",
    "hash",
    "hash_scheme",
    "key_id",
)


def _chained_rows(
    entries: list[AuditEntry],
    *,
    chain: str,
    municipality_id: int | None,
    head: tuple[int, str],
    actor: dict[str, Any],
    request_id: str,
) -> Iterator[tuple[Any, ...]]:
    """Each entry's row, signed and linked to the one before it (the first to the chain's head), one at a time
    (a generator: the bulk writer sends each chunk while the next is signed)."""
    keys = configured_keys()
    seq, prev_hash = head
    scheme = HashScheme.HMAC_SHA256.value
    now = timezone.now()
    # The fields a saved AuditEvent gives audit_verify (hashed_fields), read once for what the batch shares;
    # each event then sets only its own.
    shared = hashed_fields(
        SimpleNamespace(
            chain=chain,
            occurred_at=now,
            municipality_id=municipality_id,
            request_id=request_id,
            seq=None,
            action=None,
            object_type=None,
            object_id=None,
            before=None,
            after=None,
            **actor,
        )
    )
    signer = BatchSigner(shared, key_id=keys.current_id, secret=keys.current_secret)
    flat = FlatPayloads()
    for entry in entries:
        if flat.unchanged(entry.before) and flat.unchanged(entry.after):
            before, after = entry.before, entry.after  # what minimize(to_json_safe(…)) would give back
        else:
            before, after = minimize(to_json_safe(entry.before), to_json_safe(entry.after), keys)
        seq += 1
        signed, before_text, after_text = signer.sign(
            seq=seq,
            action=entry.action,
            object_type=entry.object_type,
            object_id=entry.object_id,
            before=before,
            after=after,
            prev_hash=prev_hash,
        )
        yield (
            now,
            municipality_id,
            chain,
            seq,
            actor["actor_id"],
            actor["actor_name"],
            entry.action,
            entry.object_type,
            entry.object_id,
            None if before is None else before_text,  # the text signed: the same JSON value, serialized once
            None if after is None else after_text,
            request_id,
            prev_hash,
            signed,
            scheme,
            keys.current_id,
        )
        prev_hash = signed


class ChainHead(NamedTuple):
    """The last event of a chain: what the next one links to."""

    seq: int
    hash: str


# The head read: the unique (chain, seq) index read backwards, one row.
_HEAD_SQL = 'SELECT "seq", "hash" FROM "audit_auditevent" WHERE "chain" = %s ORDER BY "seq" DESC LIMIT 1'


_LOCK_SQL = "SELECT pg_advisory_xact_lock(%s)"
# Both in one query (psycopg binds client-side): see _lock_chain_head for why not one statement.
_LOCK_AND_HEAD_SQL = f"{_LOCK_SQL}; {_HEAD_SQL}"


def _head(row: tuple[Any, ...] | None) -> ChainHead | None:
    return ChainHead(int(row[0]), row[1]) if row else None


class ChainLock:
    """The lock and head read of a municipality's chain, sent by another service at the start of its own query:
    numbered_insert sends them with the permit's numbered insert, so the event that follows is the only round
    trip before the commit while the counter row is locked. Then audit_record(locked=…) uses the head read.

    `lead()` is the statements to send first (None where they cannot share a query: SQLite, server-side
    binding); `read(cursor)` takes their results and leaves the cursor at the caller's own; `take()` locks and
    reads apart, for the callers that could not send them.
    """

    def __init__(self, municipality: Municipality | None) -> None:
        self.chain = municipality.ibge_code if municipality is not None else GLOBAL_CHAIN
        self.head: ChainHead | None = None
        self.held = False

    def lead(self) -> tuple[str, list[Any]] | None:
        connection = transaction.get_connection()
        if connection.vendor != "postgresql" or _server_side_binding(connection):
            return None
        return _LOCK_AND_HEAD_SQL, [_advisory_lock_key(self.chain), self.chain]

    def read(self, cursor: Any) -> None:
        cursor.nextset()  # past the lock's empty row, to the head
        self.head, self.held = _head(cursor.fetchone()), True
        cursor.nextset()

    def take(self) -> None:
        self.head, self.held = _lock_chain_head(self.chain), True

    def use(self, chain: str) -> ChainHead | None:
        """The head for one event of `chain`; once used, the head is stale (the event is the new head)."""
        if not self.held or chain != self.chain:
            raise RuntimeError(f"the lock of chain {chain} was not taken before its event")
        self.held = False
        return self.head


def _server_side_binding(connection: Any) -> bool:
    return connection.settings_dict["OPTIONS"].get("server_side_binding") is True


def _lock_chain_head(chain: str) -> ChainHead | None:
    """Serialize writers of one chain until the caller's transaction ends, then read its head.

    PostgreSQL: a transaction-scoped advisory lock per chain. Locking the head row with
    SELECT ... FOR UPDATE is not enough: a writer queued behind it wakes up still holding the
    *old* head (READ COMMITTED re-checks the row, it does not re-run ORDER BY/LIMIT), and an empty
    chain has no row to lock at all. SQLite runs every transaction as IMMEDIATE (settings), so
    writers are already serialized there. The unique (chain, seq) constraint stays as the last line.

    The lock and the read go in one round trip where the client binds the parameters itself (psycopg's
    default): two statements in one query, each with its own snapshot, so the read sees what the lock's last
    holder committed. One statement could not do both: its snapshot would be taken before it waited for the
    lock. With server-side binding (one statement per query), two round trips.
    """
    connection = transaction.get_connection()
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.execute(_HEAD_SQL, [chain])
        elif _server_side_binding(connection):
            cursor.execute(_LOCK_SQL, [_advisory_lock_key(chain)])
            cursor.execute(_HEAD_SQL, [chain])
        else:
            cursor.execute(_LOCK_AND_HEAD_SQL, [_advisory_lock_key(chain), chain])
            cursor.nextset()
        return _head(cursor.fetchone())


@functools.cache
def _advisory_lock_key(chain: str) -> int:
    digest = hashlib.sha256(f"outorga.audit.chain:{chain}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


# Every column of an event but its id, in the order _insert_event gives their values.
_EVENT_FIELDS = [field for field in AuditEvent._meta.concrete_fields if not field.primary_key]
_EVENT_COLUMNS = ", ".join(f'"{field.column}"' for field in _EVENT_FIELDS)
_EVENT_MARKS = ", ".join(["%s"] * len(_EVENT_FIELDS))


def _insert_event(event: AuditEvent, along: models.Model | None) -> None:
    """event.save(force_insert=True) with a statement written once instead of compiled by the ORM for every
    event (the writer holds the chain's lock meanwhile), the values prepared as the ORM's insert does them;
    `along` inserted by the same statement on PostgreSQL (a data-modifying WITH), saved first elsewhere."""
    connection = transaction.get_connection()
    values = [field.get_db_prep_save(field.pre_save(event, True), connection) for field in _EVENT_FIELDS]
    sql = f'INSERT INTO "audit_auditevent" ({_EVENT_COLUMNS}) VALUES ({_EVENT_MARKS}) RETURNING "id"'  # noqa: S608
    if along is not None and connection.vendor == "postgresql":
        along_sql, along_values = _row_insert(along, connection)
        sql, values = (
            f"WITH along AS ({along_sql}) {sql}, (SELECT along_id FROM along)",
            [*along_values, *values],
        )
    elif along is not None:
        along.save(force_insert=True)
        along = None
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        ids = cursor.fetchone()
    for row, pk in zip((event, along), ids, strict=False):
        if row is not None:
            row.pk, row._state.adding, row._state.db = pk, False, connection.alias


def _row_insert(row: models.Model, connection: Any) -> tuple[str, list[Any]]:
    """The INSERT of a new row, returning its id as along_id, and its values as the ORM's insert prepares them."""
    table, columns, values = insert_parts(row, connection)
    marks = ", ".join(["%s"] * len(values))
    pk = connection.ops.quote_name(row._meta.pk.column)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) RETURNING {pk} AS along_id", values  # noqa: S608


def _actor_fields(actor: Actor) -> dict[str, Any]:
    user = actor_user(actor)
    return {"actor_id": user.pk if user else None, "actor_name": actor_name(actor)}


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
            actor=actor,
            municipality=municipality,
            action=PERSONAL_DATA_READ,
            obj=obj,
            after={"fields": sorted(set(fields))},
            request_id=request_id,
        )


def audit_list_export(
    *,
    actor: AbstractBaseUser | AnonymousUser,
    municipality: Municipality | None,
    list_name: str,
    fields: Iterable[str],
    filters: dict[str, str],
    fmt: str,
    request_id: str,
    title: str = "",
) -> AuditEvent:
    """Record that a staff member downloaded a list whose columns hold personal data, with the filters used.

    Its own small transaction, as for a read: the download itself changes nothing.
    """
    with transaction.atomic():
        return audit_record(
            actor=actor,
            municipality=municipality,
            action=PERSONAL_DATA_LIST_EXPORT,
            object_type=f"export.{list_name}",
            after={
                "fields": list(fields),
                "filters": filters,
                "format": fmt,
                **({"title": title} if title else {}),
            },
            request_id=request_id,
        )
