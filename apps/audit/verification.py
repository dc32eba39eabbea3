"""Walking the hash chains: recompute every event's hash and check each link to the previous one."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from apps.audit.hashing import event_hash, hashed_fields
from apps.audit.models import AuditEvent


@dataclass(frozen=True)
class BrokenLink:
    event_id: int
    seq: int
    problem: str
    expected: str
    found: str


@dataclass(frozen=True)
class ChainReport:
    chain: str
    events: int
    broken: BrokenLink | None

    @property
    def ok(self) -> bool:
        return self.broken is None


def verify_chain(chain: str) -> ChainReport:
    count = 0
    previous_hash = ""
    for count, event in enumerate(AuditEvent.objects.of_chain(chain).iterator(), start=1):
        broken = _check_event(event, expected_seq=count, previous_hash=previous_hash)
        if broken is not None:
            return ChainReport(chain=chain, events=count, broken=broken)
        previous_hash = event.hash
    return ChainReport(chain=chain, events=count, broken=None)


def _check_event(event: AuditEvent, *, expected_seq: int, previous_hash: str) -> BrokenLink | None:
    if event.seq != expected_seq:
        # A gap means an event was removed (or the chain was spliced).
        return BrokenLink(event.pk, event.seq, "sequence gap", str(expected_seq), str(event.seq))
    if event.prev_hash != previous_hash:
        return BrokenLink(event.pk, event.seq, "prev_hash mismatch", previous_hash, event.prev_hash)
    expected = event_hash(hashed_fields(event), event.prev_hash)
    if expected != event.hash:
        return BrokenLink(event.pk, event.seq, "hash mismatch", expected, event.hash)
    return None


def verify_chains(chains: Iterable[str]) -> list[ChainReport]:
    return [verify_chain(chain) for chain in chains]


def all_chains() -> list[str]:
    return list(AuditEvent.objects.order_by("chain").values_list("chain", flat=True).distinct())
