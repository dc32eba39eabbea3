"""Walking the chains: recompute every event's hash, check each link, and hold the chain to its checkpoints."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.conf import settings

from apps.audit.checkpoints import Anchor
from apps.audit.hashing import UnknownHashSchemeError, compute_event_hash, signatures_match
from apps.audit.keys import AuditKeys, UnknownAuditKeyError, configured_keys
from apps.audit.models import AuditEvent, HashScheme


@dataclass(frozen=True)
class BrokenLink:
    event_id: int | None  # None when the event the checkpoint names is gone
    seq: int
    problem: str
    expected: str
    found: str


@dataclass(frozen=True)
class ChainReport:
    chain: str
    events: int
    broken: BrokenLink | None
    anchored_seq: int | None = None  # the highest checkpointed seq that matched
    anchored_by: str = ""

    @property
    def ok(self) -> bool:
        return self.broken is None


@dataclass
class _Walk:
    keys: AuditKeys
    previous_hash: str = ""
    keyed_seen: bool = False
    legacy_until: int = 0  # the last keyless seq the installation declared for this chain


def verify_chain(
    chain: str, *, anchors: Mapping[int, Anchor] | None = None, keys: AuditKeys | None = None
) -> ChainReport:
    anchors = anchors or {}
    walk = _Walk(keys=keys or configured_keys(), legacy_until=settings.AUDIT_LEGACY_EVENTS.get(chain, 0))
    count = 0
    for count, event in enumerate(AuditEvent.objects.of_chain(chain).iterator(), start=1):
        broken = _check_event(event, expected_seq=count, walk=walk) or _check_anchor(
            event, anchors.get(event.seq)
        )
        if broken is not None:
            return ChainReport(chain=chain, events=count, broken=broken)
        walk.previous_hash = event.hash
    return _check_tail(chain, count, anchors)


def _check_event(event: AuditEvent, *, expected_seq: int, walk: _Walk) -> BrokenLink | None:
    if event.seq != expected_seq:
        # A gap means an event was removed (or the chain was spliced).
        return BrokenLink(event.pk, event.seq, "sequence gap", str(expected_seq), str(event.seq))
    if event.prev_hash != walk.previous_hash:
        return BrokenLink(event.pk, event.seq, "prev_hash mismatch", walk.previous_hash, event.prev_hash)
    if event.hash_scheme == HashScheme.HMAC_SHA256:
        walk.keyed_seen = True
    elif event.seq > walk.legacy_until:
        # With a keyed scheme configured, a keyless event is a forger's (anyone can compute SHA-256), unless
        # the installation declared it outside the database as one of its own old events (AUDIT_LEGACY_EVENTS),
        # whatever the checkpoints say (none may be left to say it).
        return BrokenLink(
            event.pk,
            event.seq,
            "keyless hash where a keyed scheme is configured (not declared in AUDIT_LEGACY_EVENTS)",
            "hmac-sha256",
            event.hash_scheme,
        )
    elif walk.keyed_seen:
        # Keyless events only ever precede keyed ones; one after them is a forger avoiding the key.
        return BrokenLink(
            event.pk, event.seq, "keyless hash after keyed events", "hmac-sha256", event.hash_scheme
        )
    try:
        expected = compute_event_hash(event, walk.keys)
    except UnknownAuditKeyError:
        return BrokenLink(
            event.pk, event.seq, "unknown audit key id (configure the old key)", "", event.key_id
        )
    except UnknownHashSchemeError:
        return BrokenLink(event.pk, event.seq, "unknown hash scheme", "", event.hash_scheme)
    if not signatures_match(expected, event.hash):
        return BrokenLink(event.pk, event.seq, "hash mismatch", expected, event.hash)
    return None


def _check_anchor(event: AuditEvent, anchor: Anchor | None) -> BrokenLink | None:
    if anchor is None or signatures_match(anchor.hash, event.hash):
        return None
    return BrokenLink(
        event.pk, event.seq, f"differs from checkpoint {anchor.checkpoint}", anchor.hash, event.hash
    )


def _check_tail(chain: str, count: int, anchors: Mapping[int, Anchor]) -> ChainReport:
    if not anchors:
        return ChainReport(chain=chain, events=count, broken=None)
    last = anchors[max(anchors)]
    if last.seq > count:
        problem = f"events missing: checkpoint {last.checkpoint} records seq {last.seq}, the chain ends at seq {count}"
        return ChainReport(
            chain=chain, events=count, broken=BrokenLink(None, last.seq, problem, last.hash, "")
        )
    return ChainReport(
        chain=chain, events=count, broken=None, anchored_seq=last.seq, anchored_by=last.checkpoint
    )


def verify_chains(
    chains: Iterable[str], *, anchors: Mapping[str, Mapping[int, Anchor]] | None = None
) -> list[ChainReport]:
    anchors = anchors or {}
    keys = configured_keys()
    return [verify_chain(chain, anchors=anchors.get(chain), keys=keys) for chain in chains]


def all_chains(also: Iterable[str] = ()) -> list[str]:
    """Chains in the table, plus those only a checkpoint still knows (a chain deleted whole)."""
    stored = set(AuditEvent.objects.order_by().values_list("chain", flat=True).distinct())
    return sorted(stored | set(also))
