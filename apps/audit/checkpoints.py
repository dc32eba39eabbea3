"""Signed checkpoints of each chain's head, kept outside the database (the anchor of the audit chain).

The HMAC chain stops a forger without the key; it cannot stop whoever deletes the last events or the whole
chain, because what remains still links up. A checkpoint records, per chain, the sequence number and hash of
its head at a moment, signed with the audit key, in a file the database cannot reach (AUDIT_CHECKPOINT_DIR,
never overwritten) and optionally mailed to the auditors. `audit_verify` then demands that every checkpointed
event is still there with the same hash: a truncated, shortened or re-hashed chain no longer matches.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.db.models import Max, Q

from apps.audit.hashing import canonical_timestamp, sign, signatures_match
from apps.audit.keys import AuditKeys, UnknownAuditKeyError
from apps.audit.models import AuditEvent

FORMAT = "outorga-audit-checkpoint/1"
FILE_PREFIX = "checkpoint-"


@dataclass(frozen=True)
class ChainHead:
    chain: str
    seq: int
    hash: str
    occurred_at: str


@dataclass(frozen=True)
class Anchor:
    """One chain's head as one checkpoint recorded it."""

    seq: int
    hash: str
    checkpoint: str  # the file name, to name it in reports


@dataclass(frozen=True)
class CheckpointProblem:
    checkpoint: str
    problem: str


@dataclass(frozen=True)
class LoadedCheckpoints:
    anchors: dict[str, dict[int, Anchor]]  # chain -> seq -> anchor
    problems: list[CheckpointProblem]
    files: int


def current_heads() -> list[ChainHead]:
    """The last event of every chain, read in one query so the set is consistent."""
    last = AuditEvent.objects.values("chain").annotate(last_seq=Max("seq")).values_list("chain", "last_seq")
    pairs = list(last)
    if not pairs:
        return []
    match = Q()
    for chain, seq in pairs:
        match |= Q(chain=chain, seq=seq)
    events = AuditEvent.objects.filter(match).order_by("chain")
    return [ChainHead(e.chain, e.seq, e.hash, canonical_timestamp(e.occurred_at)) for e in events]


def checkpoint_document(heads: list[ChainHead], *, keys: AuditKeys, created_at: datetime) -> dict[str, Any]:
    body: dict[str, Any] = {
        "format": FORMAT,
        "created_at": canonical_timestamp(created_at),
        "key_id": keys.current_id,
        "heads": [
            {"chain": h.chain, "seq": h.seq, "hash": h.hash, "occurred_at": h.occurred_at} for h in heads
        ],
    }
    return {**body, "signature": sign(body, keys.current_secret)}


def write_checkpoint(directory: Path, document: dict[str, Any]) -> Path:
    """A new read-only file; an existing checkpoint is never overwritten (O_EXCL)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / checkpoint_name(document)
    text = checkpoint_text(document)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    return path


def checkpoint_name(document: dict[str, Any]) -> str:
    stamp = document["created_at"].replace("-", "").replace(":", "").replace(".", "")
    return f"{FILE_PREFIX}{stamp}.json"


def checkpoint_text(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def load_checkpoints(directory: Path, *, keys: AuditKeys, store: Any = None) -> LoadedCheckpoints:
    """The checkpoints of the directory and, when given, of the object-lock store (apps.audit.anchorstore)."""
    anchors: dict[str, dict[int, Anchor]] = defaultdict(dict)
    problems: list[CheckpointProblem] = []
    paths = sorted(directory.glob(f"{FILE_PREFIX}*.json")) if directory.is_dir() else []
    sources: list[tuple[str, Any]] = [(path.name, path) for path in paths]
    if store is not None:
        sources += list(store.items())
    for name, source in sources:
        document, problem = _read_signed(source, keys)
        if problem:
            problems.append(CheckpointProblem(name, problem))
            continue
        for head in document["heads"]:
            anchor = Anchor(int(head["seq"]), str(head["hash"]), name)
            earlier = anchors[head["chain"]].get(anchor.seq)
            if earlier is not None and earlier.hash != anchor.hash:
                problems.append(
                    CheckpointProblem(
                        name,
                        f"chain {head['chain']} seq {anchor.seq} disagrees with {earlier.checkpoint}",
                    )
                )
            anchors[head["chain"]][anchor.seq] = anchor
    return LoadedCheckpoints(anchors=dict(anchors), problems=problems, files=len(sources))


def _read_signed(source: Path | str, keys: AuditKeys) -> tuple[dict[str, Any], str]:
    try:
        text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
        document = json.loads(text)
        body = {key: value for key, value in document.items() if key != "signature"}
        if body.get("format") != FORMAT:
            return {}, f"unknown format {body.get('format')!r}"
        expected = sign(body, keys.secret(body["key_id"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return {}, f"unreadable ({exc})"
    except UnknownAuditKeyError as exc:
        return {}, f"signed with unknown audit key id {exc.args[0]!r}"
    if not signatures_match(expected, str(document.get("signature", ""))):
        return {}, "signature does not match (the file was edited or signed with another key)"
    return document, ""
